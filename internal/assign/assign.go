// Package assign solves the assignment problem: pairing rows with columns
// one to one so that the total weight is as large as possible (the
// Hungarian method, cubic in the larger dimension).
package assign

import "math"

// Max returns, for each row of the n×m weight matrix w, the column
// assigned to it, or -1 for rows left over when n > m; the assignment
// maximises the total weight. Rows must all have m entries.
func Max(w [][]float64) []int {
	n := len(w)
	if n == 0 {
		return nil
	}
	m := len(w[0])
	k := max(n, m)
	// Minimise cost = -weight on a k×k matrix padded with zeros, with the
	// potentials method (1-based arrays, column 0 a sentinel).
	cost := func(i, j int) float64 {
		if i <= n && j <= m {
			return -w[i-1][j-1]
		}
		return 0
	}
	u := make([]float64, k+1)
	v := make([]float64, k+1)
	p := make([]int, k+1) // p[j]: row assigned to column j
	way := make([]int, k+1)
	minv := make([]float64, k+1)
	used := make([]bool, k+1)
	for i := 1; i <= k; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], math.Inf(1), 0
			for j := 1; j <= k; j++ {
				if used[j] {
					continue
				}
				if cur := cost(i0, j) - u[i0] - v[j]; cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= k; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	out := make([]int, n)
	for i := range out {
		out[i] = -1
	}
	for j := 1; j <= m; j++ {
		if p[j] >= 1 && p[j] <= n {
			out[p[j]-1] = j - 1
		}
	}
	return out
}
