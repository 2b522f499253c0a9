package calibrate_test

import (
	"errors"
	"math"
	"testing"

	"github.com/proctorhq/proctor/calibrate"
)

func TestParseCalibration(t *testing.T) {
	b := []byte(`{"grader":"helpful","samples":160,"graded":150,"not_graded":10,"agree":1,"agreement":0.99,
		"confusion":{"pass_passed":45,"pass_failed":5,"pass_not_graded":4,"fail_passed":10,"fail_failed":90,"fail_not_graded":6}}`)
	gc, err := calibrate.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	c := gc.Result
	// Agreement is recomputed from the counts: 135 of 150, not the 0.99 written.
	if gc.Grader != "helpful" || c.Samples != 160 || c.Graded != 150 || c.Agree != 135 || math.Abs(c.Agreement-0.9) > 1e-12 {
		t.Errorf("parsed %+v", gc)
	}
	a := c.Accuracy()
	if a.GraderPass != 45 || a.HumanPass != 50 || a.GraderFail != 90 || a.HumanFail != 100 {
		t.Errorf("accuracy %+v", a)
	}
	for _, bad := range []string{`{}`, `{"grader":"x"}`, `{"confusion":{}}`, `[1]`, `{"grader":"x","confusion":{"pass_passed":-1}}`} {
		if _, err := calibrate.Parse([]byte(bad)); !errors.Is(err, calibrate.ErrFormat) {
			t.Errorf("%s: err = %v, want ErrFormat", bad, err)
		}
	}
}

func FuzzParseCalibration(f *testing.F) {
	f.Add([]byte(`{"grader":"g","confusion":{"pass_passed":3,"pass_failed":1,"fail_passed":1,"fail_failed":4}}`))
	f.Add([]byte(`{"grader":"","confusion":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		gc, err := calibrate.Parse(b)
		if err != nil {
			return
		}
		c := gc.Result
		if gc.Grader == "" || c.Samples != c.Graded+c.NotGraded || c.Agree > c.Graded {
			t.Errorf("inconsistent calibration %+v from %q", gc, b)
		}
	})
}
