//go:build race

package proctor

// similarityRace is true under the race detector, which adds allocations.
const similarityRace = true
