//go:build !race

package proctor

const similarityRace = false
