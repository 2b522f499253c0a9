package proctor_test

import (
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
)

// scripted returns a judge that always gives verdict with confidence.
func scripted(verdict, confidence string) proctor.Judge {
	return func(context.Context, string) (string, error) {
		return fmt.Sprintf(`{"criterion": "...", "violations": "...", "basis": "answer", "verdict": %q, "confidence": %q}`, verdict, confidence), nil
	}
}

// A panel is convened only where the first verdict is in doubt. Here the
// first judge passes the answer with low confidence, so two judges from
// other families are asked and the majority decides.
func Example_panel() {
	pool := proctor.NewJudgePool(
		proctor.JudgeModel{Name: "first", Family: "acme", Call: scripted("pass", "low")},
		proctor.JudgeModel{Name: "second", Family: "globex", Call: scripted("fail", "high")},
		proctor.JudgeModel{Name: "third", Family: "initech", Call: scripted("fail", "high")},
	)
	g, err := proctor.NewLLMJudge("The answer cites its source.", proctor.JudgeOptions{}, pool)
	if err != nil {
		panic(err)
	}
	gr := g.Grade(context.Background(), &proctor.Sample{Output: "It is so.", Model: proctor.Model{Family: "umbrella"}})

	fmt.Println(gr.Status)
	ev := gr.Evidence.(*proctor.JudgeEvidence)
	fmt.Println("panel:", ev.Panel, ev.PanelReasons)
	for _, v := range ev.Judges {
		fmt.Println(v.Name, v.Family, v.Verdict, v.Confidence)
	}
	for _, s := range pool.Stats() {
		fmt.Println(s.Name, "calls:", s.Calls)
	}
	// Output:
	// failed
	// panel: true [the first judge's confidence was low]
	// first acme pass low
	// second globex fail high
	// third initech fail high
	// first calls: 1
	// second calls: 1
	// third calls: 1
}

// The panel statistics of two shards' reports add up to the whole run's:
// the coincidences are summed and Krippendorff's alpha is computed again
// from the sum, not averaged.
func ExampleReport_AddPanels() {
	r := proctor.NewReport("support-bot")
	r.AddPanels(&proctor.PanelStats{Convened: 2, Paired: 2, Coincidences: [2][2]float64{{2, 1}, {1, 2}}})
	r.AddPanels(&proctor.PanelStats{Convened: 1, Paired: 1, Coincidences: [2][2]float64{{0, 0}, {0, 2}}})
	r.AddPanels(nil) // a report without panels adds nothing
	fmt.Printf("%d panels, coincidences %v, alpha %.4f\n", r.Panels.Convened, r.Panels.Coincidences, *r.Panels.Alpha)
	// Output:
	// 3 panels, coincidences [[2 1] [1 4]], alpha 0.5333
}
