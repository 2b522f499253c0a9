package main

import (
	"runtime/debug"
	"testing"
)

// TestVersionOf: the module version from the build info, with the VCS
// revision when the build recorded one and the version does not already
// carry it.
func TestVersionOf(t *testing.T) {
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "9d245d5047c5aa11bb22cc33dd44ee55ff667788"}
	dirty := debug.BuildSetting{Key: "vcs.modified", Value: "true"}
	for _, tt := range []struct {
		main     string
		settings []debug.BuildSetting
		want     string
	}{
		{"v1.2.3", nil, "v1.2.3"},
		{"", nil, "(devel)"},
		{"(devel)", []debug.BuildSetting{rev}, "(devel) (revision 9d245d5047c5)"},
		{"(devel)", []debug.BuildSetting{rev, dirty}, "(devel) (revision 9d245d5047c5+dirty)"},
		{"v0.0.0-20261202014548-9d245d5047c5+dirty", []debug.BuildSetting{rev, dirty}, "v0.0.0-20261202014548-9d245d5047c5+dirty"},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Version: tt.main}, Settings: tt.settings}
		if got := versionOf(bi); got != tt.want {
			t.Errorf("versionOf(%q, %v) = %q, want %q", tt.main, tt.settings, got, tt.want)
		}
	}
}
