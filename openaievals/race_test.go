//go:build race

package openaievals

const raceEnabled = true
