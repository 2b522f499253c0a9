package suite

import (
	"maps"

	"github.com/proctorhq/proctor"
)

// JoinTraced returns the recorded outputs that traced gives for the case
// whose shared sample is base: each traced sample with the case's item
// keys added under its own (a trace's item.trace wins over a case key of
// that name). It returns nil when traced has none for the case.
func JoinTraced(base proctor.Sample, traced func(id string) ([]proctor.Sample, bool)) []proctor.Sample {
	samples, ok := traced(base.ID)
	if !ok || len(samples) == 0 {
		return nil
	}
	out := make([]proctor.Sample, len(samples))
	for i, s := range samples {
		if base.Item != nil {
			item := maps.Clone(base.Item)
			maps.Copy(item, s.Item)
			s.Item = item
		}
		out[i] = s
	}
	return out
}
