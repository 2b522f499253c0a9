//go:build !race

package proctor

const raceEnabled = false
