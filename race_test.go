//go:build race

package proctor

const raceEnabled = true
