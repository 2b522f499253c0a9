package refusal

import "testing"

func TestDetectSentence(t *testing.T) {
	tests := []struct {
		reply, want string
	}{
		{"Sure, here it is. I can't help with the last part, though.", "I can't help with the last part, though."},
		{"I'm sorry, but I cannot assist with that.", "I'm sorry, but I cannot assist with that."},
		{"All good.", ""},
		{`He said "I won't do that" and left.`, ""},
	}
	for _, tt := range tests {
		ok, got := Detect(tt.reply)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("Detect(%q) = %v, %q, want %v, %q", tt.reply, ok, got, tt.want != "", tt.want)
		}
	}
}

func TestUnquoteKeepsUnpaired(t *testing.T) {
	// An unpaired quote mark (inches) must not hide the refusal after it.
	ok, _ := Detect(`The board is 5" wide. I can't help with cutting it.`)
	if !ok {
		t.Errorf("got no refusal, want one: an unpaired quote mark must not swallow the rest")
	}
}

func FuzzDetect(f *testing.F) {
	for _, s := range []string{"I can't help with that.", `"I can't"`, "“x", "```\nI can't help\n```", "> I won't", "\xff", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ok, sent := Detect(s)
		if ok != (sent != "") {
			t.Fatalf("Detect(%q) = %v, %q: a refusal needs its sentence", s, ok, sent)
		}
	})
}
