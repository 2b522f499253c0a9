//go:build !race

package proctor

// disclosureRace is true under -race, where allocation counts differ.
const disclosureRace = false
