package openaievals

import (
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"
)

func TestReadScoreReply(t *testing.T) {
	tests := []struct {
		name   string
		reply  string
		want   float64
		reason string // reasoning read, for JSON replies
		bad    bool
		why    string
	}{
		{"bare", "0.85", 0.85, "", false, "the seed's judges reply with ONLY a number"},
		{"bare spaced", "  3\n", 3, "", false, "white space around"},
		{"integer", "4", 4, "", false, "whole numbers on a 1-4 range"},
		{"negative", "-1.5", -1.5, "", false, "ranges may go below zero"},
		{"exponent", "1e-1", 0.1, "", false, "a plain decimal with exponent"},
		{"leading dot", ".5", 0.5, "", false, "leading dot"},
		{"bold", "**0.7**", 0.7, "", false, "Markdown emphasis"},
		{"labelled", "Score: 0.6", 0.6, "", false, "Score: N"},
		{"final score", "final score = 3", 3, "", false, "final score = N"},
		{"reasoning then number", "The summary keeps all facts.\nIt omits one date.\n0.9", 0.9, "The summary keeps all facts.\nIt omits one date.", false, "a number alone on the last line"},
		{"same number twice", "0.9\nScore: 0.9", 0.9, "", false, "repeating the same number is not ambiguous"},
		{"openai json", `{"steps": [{"description": "checks facts", "conclusion": "all kept"}], "result": 0.95}`, 0.95, "checks facts all kept", false, "OpenAI's score_model output"},
		{"score json", `{"score": 4, "reasoning": "complete"}`, 4, "complete", false, "score and reasoning keys"},
		{"contract fake reply", `{"criterion": "x", "violations": "none", "basis": "answer", "verdict": "pass", "confidence": "high", "score": 4}`, 4, "", false, "the contract's fake server replies like this"},
		{"fenced json", "Here you go:\n```json\n{\"result\": 0.4}\n```", 0.4, "Here you go:", false, "JSON in fences"},
		{"string number", `{"score": "0.8"}`, 0.8, "", false, "a number held in a string"},
		{"score and result disagree", `{"score": 0.2, "result": 0.9}`, 0, "", true, "two score keys that disagree are no score"},
		{"seed detailed json", `{"score": 0.9, "strengths": ["a"], "weaknesses": [], "missing_items": []}`, 0.9, "", false, "the seed's llm_as_judge_detailed shape"},
		{"empty", "", 0, "", true, "nothing to read"},
		{"prose", "I would rate this about 0.8 overall.", 0, "", true, "a number inside prose is not a score"},
		{"two numbers", "0.8\n0.3", 0.3, "", false, "the number on the last line decides over the reasoning's"},
		{"two numbers not last", "0.8\n0.3\nthat is all", 0, "", true, "different numbers alone on lines, none last, are ambiguous"},
		{"percent", "Score: 85%", 0.85, "", false, "a percentage on [0, 1]"},
		{"out of one", "Final score: 0.7 out of 1", 0.7, "", false, "N out of the range's top"},
		{"mt-bench", "The summary is faithful.\nRating: [[0.9]]", 0.9, "The summary is faithful.", false, "MT-Bench's [[N]]"},
		{"prometheus", "Feedback: keeps every fact. [RESULT] 1", 1, "keeps every fact.", false, "Prometheus's [RESULT] N"},
		{"think block", "<think>maybe 0.2\n0.3</think>\n0.9", 0.9, "maybe 0.2\n0.3", false, "a closed reasoning block is not read, and kept as reasoning"},
		{"json no score", `{"verdict": "pass"}`, 0, "", true, "JSON without score or result"},
		{"json score word", `{"score": "high"}`, 0, "", true, "a score that is not a number"},
		{"nan", "NaN", 0, "", true, "NaN is no score"},
		{"inf", "Inf", 0, "", true, "Inf is no score"},
		{"hex", "0x1p-2", 0, "", true, "only plain decimals"},
		{"fraction", "3/4", 0, "", true, "a fraction is not read as a score"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, reason, err := readScoreReply(tt.reply, 0, 1)
			if (err != nil) != tt.bad {
				t.Fatalf("readScoreReply(%q): error %v, want error %v (%s)", tt.reply, err, tt.bad, tt.why)
			}
			if !tt.bad && (got != tt.want || reason != tt.reason) {
				t.Errorf("readScoreReply(%q) = %v, %q; want %v, %q (%s)", tt.reply, got, reason, tt.want, tt.reason, tt.why)
			}
		})
	}
}

func FuzzReadScoreReply(f *testing.F) {
	for _, s := range []string{"0.85", "**3**", "Score: 2", `{"result": 0.5, "steps": []}`, "```json\n{\"score\": 1}\n```", "a\n1\n2", `{"score": "x"}`, "{", ""} {
		f.Add(s)
	}
	g := MustScoreModel([]EvalMessage{{Role: "user", Content: "{{sample.output_text}}"}}, 0.5, ScoreModelOptions{})
	f.Fuzz(func(t *testing.T, reply string) {
		v, _, _, err := readScoreReply(reply, 0, 1)
		if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
			t.Errorf("readScoreReply(%q) = %v: not a finite score", reply, v)
		}
		cr, err := g.read(reply)
		if err == nil && (cr.Score < 0 || cr.Score > 1 || cr.Verdict == proctor.VerdictAbstain) {
			t.Errorf("read(%q) = %+v: want a score in [0, 1] and a side", reply, cr)
		}
	})
}

func TestReadLabelReply(t *testing.T) {
	labels := []string{"relevant", "not relevant", "Partially"}
	tests := []struct {
		name  string
		reply string
		want  string
		exact bool
		bad   bool
		why   string
	}{
		{"bare", "relevant", "relevant", true, false, "the label alone"},
		{"case", "RELEVANT", "relevant", true, false, "case is ignored"},
		{"decorated", "**Partially**.", "Partially", true, false, "emphasis and a period"},
		{"prefixed", "Label: not relevant", "not relevant", true, false, "Label: X"},
		{"json", `{"label": "Not Relevant", "reasoning": "off topic"}`, "not relevant", true, false, "JSON label"},
		{"json result", "```json\n{\"result\": \"partially\"}\n```", "Partially", true, false, "OpenAI-style result key in fences"},
		{"json string", `"relevant"`, "relevant", true, false, "a JSON string"},
		{"mention", "I think the answer is relevant to the question.", "relevant", false, false, "one label mentioned: low confidence"},
		{"longer label", "The answer is not relevant here.", "not relevant", false, false, "relevant inside not relevant is not a second mention"},
		{"ambiguous", "It is partially relevant.", "", false, true, "two labels mentioned"},
		{"none", "No idea.", "", false, true, "no label"},
		{"word inside word", "irrelevant", "", false, true, "relevant inside irrelevant is not a whole word"},
		{"json unknown label", `{"label": "maybe"}`, "", false, true, "a label not in the list"},
		{"json no label", `{"verdict": "pass"}`, "", false, true, "JSON without a label"},
		{"json label not string", `{"label": 3}`, "", false, true, "a label that is not a string"},
		{"empty", " ", "", false, true, "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, exact, _, err := readLabelReply(tt.reply, labels)
			if (err != nil) != tt.bad {
				t.Fatalf("readLabelReply(%q): error %v, want error %v (%s)", tt.reply, err, tt.bad, tt.why)
			}
			if got != tt.want || exact != tt.exact {
				t.Errorf("readLabelReply(%q) = %q, exact %v; want %q, exact %v (%s)", tt.reply, got, exact, tt.want, tt.exact, tt.why)
			}
		})
	}
}

func FuzzReadLabelReply(f *testing.F) {
	labels := []string{"yes", "no", "not sure"}
	for _, s := range []string{"yes", "No.", `{"label": "not sure"}`, "yes and no", "**yes**", "é yes", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		got, _, _, err := readLabelReply(reply, labels)
		if err == nil && got != "yes" && got != "no" && got != "not sure" {
			t.Errorf("readLabelReply(%q) = %q: not one of the labels", reply, got)
		}
	})
}

func TestResolveJudge(t *testing.T) {
	ok := func(context.Context, string) (string, error) { return "1", nil }
	p := proctor.NewJudgePool(
		proctor.JudgeModel{Name: "primary", Family: "acme", Model: "acme-1", Call: ok},
		proctor.JudgeModel{Name: "gpt-4.1", Family: "fam-a", Model: "x-pass-high", Call: ok},
		proctor.JudgeModel{Name: "c", Family: "Anthropic", Model: "claude-sonnet-4", Call: ok},
		proctor.JudgeModel{Name: "o", Family: "openai", Model: "gpt-4o", Call: ok},
	)
	tests := []struct {
		model  string
		want   string
		caveat string // a substring of the caveat; "" for none
		why    string
	}{
		{"gpt-4.1", "gpt-4.1", "", "by name first, whatever its model id (the contract's judge)"},
		{"claude-sonnet-4", "c", "", "by model id"},
		{"CLAUDE-SONNET-4", "c", "", "model ids ignore case"},
		{"anthropic", "c", "", "by family"},
		{"gpt-5", "o", "same family, openai", "gpt-* belongs to the openai family"},
		{"claude-opus-9", "c", "same family, anthropic", "claude-* belongs to anthropic"},
		{"mystery-1", "", "matches no configured judge", "no match: the primary, with a caveat"},
		{"gemini-2", "", "matches no configured judge", "a known family no judge has"},
		{"", "", "", "no model: pool order"},
	}
	for _, tt := range tests {
		got, caveat := resolveJudge(p, "score_model", tt.model)
		if got != tt.want || (tt.caveat == "") != (caveat == "") || !strings.Contains(caveat, tt.caveat) {
			t.Errorf("resolveJudge(%q) = %q, %q; want %q with caveat %q (%s)", tt.model, got, caveat, tt.want, tt.caveat, tt.why)
		}
	}
	if got, caveat := resolveJudge(nil, "score_model", "gpt-4.1"); got != "" || caveat != "" {
		t.Errorf("no pool: got %q, %q; want no judge and no caveat", got, caveat)
	}
}

// scoreInput is the seed's llm_as_judge messages, shortened.
var scoreInput = []EvalMessage{
	{Role: "system", Content: "You are an expert technical summarization evaluator. Respond with ONLY a number."},
	{Role: "user", Content: "Source Section:\n{ {item.section} }\n\nGenerated Summary:\n{ {sample.output_text} }"},
}

func scoreSample(out string) *proctor.Sample {
	s := judgeSample()
	s.Output = out
	s.Item = map[string]any{"section": "The reaction of [14-14C]benzene at 80 C."}
	return s
}

func TestScoreModelRangeAndThreshold(t *testing.T) {
	tests := []struct {
		name      string
		rng       [2]float64
		threshold float64
		reply     string
		want      proctor.Status
		score     float64 // grade score, scaled to [0, 1]
		panel     bool
		why       string
	}{
		{"top of 1-4", [2]float64{1, 4}, 3, "4", proctor.StatusPassed, 1, false, "raw 4 >= 3, far from it: one judge decides"},
		{"bottom of 1-4", [2]float64{1, 4}, 3, "1", proctor.StatusFailed, 0, false, "raw 1 < 3"},
		{"at threshold", [2]float64{1, 4}, 3, "3", proctor.StatusPassed, 2.0 / 3, true, "raw = threshold passes, but within a tenth of the range: low confidence, panel"},
		{"just below", [2]float64{1, 4}, 3, "2.8", proctor.StatusFailed, 1.8 / 3, true, "0.2 from the threshold, less than 0.3: panel"},
		{"default range", [2]float64{}, 0.85, "0.9", proctor.StatusPassed, 0.9, true, "0.05 from 0.85 on [0, 1]: panel"},
		{"default range far", [2]float64{}, 0.85, "0.5", proctor.StatusFailed, 0.5, false, "far below"},
		{"wide range", [2]float64{0, 10}, 7, "8.5", proctor.StatusPassed, 0.85, false, "1.5 from 7 on a width of 10"},
		{"negative range", [2]float64{-1, 1}, 0, "-0.5", proctor.StatusFailed, 0.25, false, "0.5 from 0 on a width of 2"},
		{"above range", [2]float64{1, 4}, 3, "5", proctor.StatusNotGraded, 0, true, "off the range: unreadable, the judge abstains"},
		{"unreadable", [2]float64{}, 0.5, "looks fine to me", proctor.StatusNotGraded, 0, true, "no number: abstains"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := replies("j", "fam-a", tt.reply)
			g, err := NewScoreModel(scoreInput, tt.threshold, ScoreModelOptions{Range: tt.rng}, judgePoolOf(j))
			if err != nil {
				t.Fatal(err)
			}
			got := g.Grade(context.Background(), scoreSample("Benzene reacts at 80 C."))
			if got.Status != tt.want {
				t.Fatalf("got %v (%s), want %v (%s)", got.Status, got.Reason, tt.want, tt.why)
			}
			if tt.want != proctor.StatusNotGraded && (!got.HasScore || math.Abs(got.Score-tt.score) > 1e-9) {
				t.Errorf("score %v (has %v), want %v (%s)", got.Score, got.HasScore, tt.score, tt.why)
			}
			ev := judgeEvidence(got)
			if ev == nil || ev.Panel != tt.panel {
				t.Fatalf("evidence %+v: want panel %v (%s)", ev, tt.panel, tt.why)
			}
			if v := ev.Judges[0]; tt.want != proctor.StatusNotGraded && (v.Score == nil || tt.reply != kit.Num(*v.Score)) {
				t.Errorf("vote score %v, want the raw score %s on the range", v.Score, tt.reply)
			}
		})
	}
}

func TestScoreModelAsksTheRequestedJudge(t *testing.T) {
	primary := replies("primary", "fam-a", "0.1")
	named := replies("gpt-4.1", "fam-b", "0.95")
	g := MustScoreModel(scoreInput, 0.5, ScoreModelOptions{Model: "gpt-4.1"}, judgePoolOf(primary, named))
	got := g.Grade(context.Background(), scoreSample("x"))
	if got.Status != proctor.StatusPassed || named.Calls() != 1 || primary.Calls() != 0 || len(got.Caveats) != 0 {
		t.Errorf("got %v (%s), caveats %v, calls primary %d named %d; want passed by gpt-4.1 alone, no caveat",
			got.Status, got.Reason, got.Caveats, primary.Calls(), named.Calls())
	}

	primary, named = replies("primary", "fam-a", "0.1"), replies("other", "fam-b", "0.95")
	g = MustScoreModel(scoreInput, 0.5, ScoreModelOptions{Model: "gpt-4.1"}, judgePoolOf(primary, named))
	got = g.Grade(context.Background(), scoreSample("x"))
	if got.Status != proctor.StatusFailed || primary.Calls() != 1 || len(got.Caveats) != 1 || !strings.Contains(got.Caveats[0], `"gpt-4.1" matches no configured judge`) {
		t.Errorf("got %v (%s), caveats %q; want failed by the primary with a caveat naming gpt-4.1", got.Status, got.Reason, got.Caveats)
	}

	// The requested judge shares the subject's family: it is skipped as any
	// judge would be, and the next one grades.
	same := replies("gpt-4.1", "fam-z", "0.95")
	other := replies("other", "fam-b", "0.1")
	g = MustScoreModel(scoreInput, 0.5, ScoreModelOptions{Model: "gpt-4.1"}, judgePoolOf(other, same))
	got = g.Grade(context.Background(), scoreSample("x"))
	if got.Status != proctor.StatusFailed || same.Calls() != 0 {
		t.Errorf("got %v (%s) with %d calls to the same-family judge; want failed by other", got.Status, got.Reason, same.Calls())
	}
}

func TestScoreModelPrompt(t *testing.T) {
	j := replies("j", "fam-a", "0.9")
	g := MustScoreModel([]EvalMessage{
		{Role: "system", Content: "Rate it. Write to ops@example.com with questions."},
		{Role: "user", Content: "Section: {{item.section}}\nSummary: {{sample.output_text}}"},
	}, 0.5, ScoreModelOptions{Range: [2]float64{0, 1}}, judgePoolOf(j), proctor.WithRedactor(proctor.RedactBasic))
	s := scoreSample("Mail ann@example.com for the data.")
	g.Grade(context.Background(), s)
	if j.Calls() != 1 {
		t.Fatalf("judge called %d times, want 1", j.Calls())
	}
	p := j.Prompts()[0]
	for _, want := range []string{
		"[system]\nRate it. Write to ops@example.com with questions.\n\n[user]\nSection: The reaction of [14-14C]benzene at 80 C.\nSummary: Mail ",
		"\n\n[system]\nReply with the score, a number from 0 to 1",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt %q\nwant it to contain %q", p, want)
		}
	}
	if strings.Contains(p, "ann@example.com") {
		t.Errorf("prompt %q: the sample's e-mail was not redacted", p)
	}
}

func TestScoreModelNotGraded(t *testing.T) {
	g := MustScoreModel(scoreInput, 0.5, ScoreModelOptions{})
	if got := g.Grade(context.Background(), scoreSample("x")); got.Status != proctor.StatusNotGraded || !errors.Is(got.Err, proctor.ErrNoJudge) {
		t.Errorf("no judge: got %v (%s), want not graded with ErrNoJudge", got.Status, got.Reason)
	}
	j := replies("j", "fam-a", "0.9")
	g = MustScoreModel(scoreInput, 0.5, ScoreModelOptions{}, judgePoolOf(j))
	s := scoreSample("x")
	s.Item = nil
	if got := g.Grade(context.Background(), s); got.Status != proctor.StatusNotGraded || j.Calls() != 0 || !strings.Contains(got.Reason, "item.section") {
		t.Errorf("missing item: got %v (%s) with %d calls, want not graded naming item.section, no call", got.Status, got.Reason, j.Calls())
	}
	if proctor.KindOf(g) != proctor.KindModel {
		t.Errorf("kind %v, want model", proctor.KindOf(g))
	}
}

func TestScoreModelSamplingCaveat(t *testing.T) {
	temp, seed := 0.0, int64(7)
	j := replies("j", "fam-a", "0.9")
	g := MustScoreModel(scoreInput, 0.5, ScoreModelOptions{Sampling: SamplingParams{Temperature: &temp}}, judgePoolOf(j))
	if got := g.Grade(context.Background(), scoreSample("x")); len(got.Caveats) != 0 {
		t.Errorf("temperature 0: caveats %q, want none: judges run at 0", got.Caveats)
	}
	g = MustScoreModel(scoreInput, 0.5, ScoreModelOptions{Sampling: SamplingParams{Seed: &seed, ReasoningEffort: "high"}}, judgePoolOf(j))
	got := g.Grade(context.Background(), scoreSample("x"))
	if len(got.Caveats) != 1 || !strings.Contains(got.Caveats[0], "seed=7, reasoning_effort=high") {
		t.Errorf("caveats %q, want one naming seed=7, reasoning_effort=high", got.Caveats)
	}
}

func TestNewScoreModelErrors(t *testing.T) {
	msgs := []EvalMessage{{Role: "user", Content: "{{sample.output_text}}"}}
	bad := 3.0
	tests := []struct {
		name  string
		input []EvalMessage
		th    float64
		opts  ScoreModelOptions
		want  string
	}{
		{"no input", nil, 0.5, ScoreModelOptions{}, "no messages"},
		{"role", []EvalMessage{{Role: "judge", Content: "x"}}, 0.5, ScoreModelOptions{}, "input[0].role"},
		{"template", []EvalMessage{{Role: "user", Content: "{{sample.output_json}}"}}, 0.5, ScoreModelOptions{}, "input[0].content"},
		{"empty range", msgs, 1, ScoreModelOptions{Range: [2]float64{1, 1}}, "range"},
		{"threshold off range", msgs, 5, ScoreModelOptions{Range: [2]float64{1, 4}}, "pass_threshold 5"},
		{"nan threshold", msgs, math.NaN(), ScoreModelOptions{}, "pass_threshold"},
		{"temperature", msgs, 0.5, ScoreModelOptions{Sampling: SamplingParams{Temperature: &bad}}, "temperature"},
	}
	for _, tt := range tests {
		_, err := NewScoreModel(tt.input, tt.th, tt.opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error naming %q", tt.name, err, tt.want)
		}
	}
}

func TestLabelModelGrade(t *testing.T) {
	input := []EvalMessage{{Role: "user", Content: "Is this answer correct? {{sample.output_text}}"}}
	tests := []struct {
		reply string
		want  proctor.Status
		label string
		panel bool
		why   string
	}{
		{`{"label": "Correct"}`, proctor.StatusPassed, "correct", false, "a passing label in JSON: high confidence"},
		{"incorrect", proctor.StatusFailed, "incorrect", false, "a failing label alone"},
		{"I'd say it is partially correct.", proctor.StatusPassed, "partially correct", true, "one label mentioned in prose: low confidence, panel"},
		{"Between correct and incorrect.", proctor.StatusNotGraded, "", true, "two labels: unreadable, the judge abstains"},
	}
	for _, tt := range tests {
		j := replies("j", "fam-a", tt.reply)
		g := MustLabelModel(input, []string{"correct", "partially correct", "incorrect"}, []string{"correct", "partially correct"}, LabelModelOptions{}, judgePoolOf(j))
		got := g.Grade(context.Background(), judgeSample())
		ev := judgeEvidence(got)
		if got.Status != tt.want || ev == nil || ev.Panel != tt.panel || ev.Judges[0].Category != tt.label {
			t.Errorf("reply %q: got %v (%s), evidence %+v; want %v with label %q, panel %v (%s)", tt.reply, got.Status, got.Reason, ev, tt.want, tt.label, tt.panel, tt.why)
		}
	}
	if !strings.Contains(func() string {
		j := replies("j", "fam-a", "correct")
		MustLabelModel(input, []string{"correct", "incorrect"}, []string{"correct"}, LabelModelOptions{}, judgePoolOf(j)).Grade(context.Background(), judgeSample())
		return j.Prompts()[0]
	}(), `exactly one of these labels: "correct", "incorrect"`) {
		t.Errorf("prompt does not list the labels")
	}
}

func TestNewLabelModelErrors(t *testing.T) {
	input := []EvalMessage{{Role: "user", Content: "{{sample.output_text}}"}}
	tests := []struct {
		name            string
		labels, passing []string
		want            string
	}{
		{"no labels", nil, []string{"a"}, "no labels"},
		{"blank", []string{"a", " "}, []string{"a"}, "blank"},
		{"repeated ignoring case", []string{"Yes", "yes"}, []string{"Yes"}, "twice"},
		{"no passing", []string{"a"}, nil, "no passing labels"},
		{"passing not a label", []string{"a", "b"}, []string{"c"}, `"c" is not one of the labels`},
	}
	for _, tt := range tests {
		_, err := NewLabelModel(input, tt.labels, tt.passing, LabelModelOptions{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error saying %q", tt.name, err, tt.want)
		}
	}
}

func TestScoreModelSpecErrors(t *testing.T) {
	msgs := `"input": [{"role": "user", "content": "{{sample.output_text}}"}]`
	tests := []struct {
		name   string
		spec   string
		option string
	}{
		{"no model", `{"type": "score_model", ` + msgs + `, "pass_threshold": 0.5}`, "model"},
		{"no input", `{"type": "score_model", "model": "m", "pass_threshold": 0.5}`, "input"},
		{"input string", `{"type": "score_model", "model": "m", "input": "rate it", "pass_threshold": 0.5}`, "input"},
		{"unknown message key", `{"type": "score_model", "model": "m", "input": [{"role": "user", "content": "x", "name": "n"}], "pass_threshold": 0.5}`, "input[0]"},
		{"bad role", `{"type": "score_model", "model": "m", "input": [{"role": "tool", "content": "x"}], "pass_threshold": 0.5}`, "input[0].role"},
		{"bad message type", `{"type": "score_model", "model": "m", "input": [{"role": "user", "content": "x", "type": "note"}], "pass_threshold": 0.5}`, "input[0].type"},
		{"unknown variable", `{"type": "score_model", "model": "m", "input": [{"role": "system", "content": "ok"}, {"role": "user", "content": "{{sample.output_json}}"}], "pass_threshold": 0.5}`, "input[1].content"},
		{"image part", `{"type": "score_model", "model": "m", "input": [{"role": "user", "content": [{"type": "input_image", "image_url": "x"}]}], "pass_threshold": 0.5}`, "input[0].content"},
		{"unknown part", `{"type": "score_model", "model": "m", "input": [{"role": "user", "content": {"type": "input_text", "text": "x", "extra": 1}}], "pass_threshold": 0.5}`, "input[0].content"},
		{"no threshold", `{"type": "score_model", "model": "m", ` + msgs + `}`, "pass_threshold"},
		{"threshold off range", `{"type": "score_model", "model": "m", ` + msgs + `, "range": [1, 4], "pass_threshold": 0.5}`, "pass_threshold"},
		{"range length", `{"type": "score_model", "model": "m", ` + msgs + `, "range": [1], "pass_threshold": 1}`, "range"},
		{"range order", `{"type": "score_model", "model": "m", ` + msgs + `, "range": [4, 1], "pass_threshold": 2}`, "range"},
		{"sampling key", `{"type": "score_model", "model": "m", ` + msgs + `, "pass_threshold": 0.5, "sampling_params": {"temp": 0}}`, "sampling_params"},
		{"sampling value", `{"type": "score_model", "model": "m", ` + msgs + `, "pass_threshold": 0.5, "sampling_params": {"top_p": 2}}`, "sampling_params.top_p"},
		{"reasoning effort", `{"type": "score_model", "model": "m", ` + msgs + `, "pass_threshold": 0.5, "sampling_params": {"reasoning_effort": "max"}}`, "sampling_params.reasoning_effort"},
		{"unknown option", `{"type": "score_model", "model": "m", ` + msgs + `, "pass_threshold": 0.5, "labels": ["a"]}`, "labels"},
		{"label: no labels", `{"type": "label_model", "model": "m", ` + msgs + `, "passing_labels": ["a"]}`, "labels"},
		{"label: no passing", `{"type": "label_model", "model": "m", ` + msgs + `, "labels": ["a"]}`, "passing_labels"},
		{"label: passing not a label", `{"type": "label_model", "model": "m", ` + msgs + `, "labels": ["a"], "passing_labels": ["b"]}`, "passing_labels"},
		{"label: repeated", `{"type": "label_model", "model": "m", ` + msgs + `, "labels": ["a", "A"], "passing_labels": ["a"]}`, "labels"},
		{"label: no sampling params", `{"type": "label_model", "model": "m", ` + msgs + `, "labels": ["a"], "passing_labels": ["a"], "sampling_params": {}}`, "sampling_params"},
	}
	c := proctor.NewCompiler(Types(), Types())
	for _, tt := range tests {
		_, err := c.Compile([]byte(tt.spec))
		var se *proctor.SpecError
		if !errors.As(err, &se) || se.Option != tt.option {
			t.Errorf("%s: got %v, want a spec error naming option %s", tt.name, err, tt.option)
		}
	}
}

func TestScoreModelSpec(t *testing.T) {
	j := replies("gpt-4.1", "fam-a", `{"steps": [{"description": "facts", "conclusion": "kept"}], "result": 3.5}`)
	c := proctor.NewCompiler(Types(), judgePoolOf(replies("primary", "fam-b", "1"), j))
	ch, err := c.Compile([]byte(`{"type": "score_model", "name": "q", "model": "gpt-4.1", "range": [1, 4], "pass_threshold": 3,
		"sampling_params": {"temperature": 0, "seed": null},
		"input": [{"role": "system", "content": [{"type": "input_text", "text": "Rate 1-4."}]},
		          {"type": "message", "role": "user", "content": {"type": "input_text", "text": "Section:\n{{item.section}}\nSummary:\n{{sample.output_text}}"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got := ch.Grade(context.Background(), scoreSample("sum"))
	ev := judgeEvidence(got)
	if got.Status != proctor.StatusPassed || got.Grader != "q" || ev == nil || ev.Judges[0].Name != "gpt-4.1" || ev.Judges[0].Reasoning != "facts kept" {
		t.Errorf("got %v %q (%s), evidence %+v; want passed by gpt-4.1 with its steps as reasoning", got.Status, got.Grader, got.Reason, ev)
	}
	if !strings.Contains(j.Prompts()[0], "[system]\nRate 1-4.\n\n[user]\nSection:\nThe reaction") {
		t.Errorf("prompt %q: content parts not rendered", j.Prompts()[0])
	}
}

// BenchmarkReadScoreReply reads the reply shapes a judge gives, beside
// the bare number parse they all end in.
func BenchmarkReadScoreReply(b *testing.B) {
	for _, bc := range []struct{ name, reply string }{
		{"bare", "0.85"},
		{"json", `{"steps": [{"description": "checks the facts", "conclusion": "all kept"}], "result": 0.95}`},
		{"lines", "The summary keeps the facts.\nIt omits one date.\nScore: 0.9"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, _, err := readScoreReply(bc.reply, 0, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("strconv.ParseFloat", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := strconv.ParseFloat("0.85", 64); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// score_model built without judges matches its model to the Runner's
// judges, as it does to judges it was built with.
func TestScoreModelTakesTheRunnersJudge(t *testing.T) {
	primary := replies("primary", "fam-a", "0.1")
	named := replies("gpt-4.1", "fam-b", "0.95")
	g := MustScoreModel(scoreInput, 0.5, ScoreModelOptions{Model: "gpt-4.1"})
	r := proctor.NewRunner(judgePoolOf(primary, named), proctor.WithChecks(proctor.Check{Grader: g}))
	rep, err := r.Run(context.Background(), []proctor.Case{{ID: "a", Sample: *scoreSample("x")}})
	if err != nil {
		t.Fatal(err)
	}
	got := rep.Cases[0].Attempts[0].Grades[0]
	if got.Status != proctor.StatusPassed || named.Calls() != 1 || primary.Calls() != 0 || len(got.Caveats) != 0 {
		t.Errorf("got %v (%s), caveats %v, calls primary %d named %d; want passed by gpt-4.1 alone",
			got.Status, got.Reason, got.Caveats, primary.Calls(), named.Calls())
	}
	other := replies("other", "fam-b", "0.95")
	r = proctor.NewRunner(judgePoolOf(replies("primary", "fam-a", "0.1"), other), proctor.WithChecks(proctor.Check{Grader: g}))
	rep, _ = r.Run(context.Background(), []proctor.Case{{ID: "a", Sample: *scoreSample("x")}})
	got = rep.Cases[0].Attempts[0].Grades[0]
	if len(got.Caveats) != 1 || !strings.Contains(got.Caveats[0], `"gpt-4.1" matches no configured judge`) {
		t.Errorf("caveats %q; want one naming gpt-4.1", got.Caveats)
	}
}
