package redact

import "testing"

func TestBasic(t *testing.T) {
	tests := []struct{ in, want, why string }{
		{"mail ann.lee+x@mail.example.co.uk now", "mail [email] now", "addresses with dots, plus and subdomains"},
		{"call +44 20 7946 0958", "call [number]", "a phone number with spaces"},
		{"card 4111-1111-1111-1111.", "card [number].", "a card number with dashes"},
		{"order 12345 shipped", "order 12345 shipped", "five digits are kept: short numbers are rarely personal"},
		{"ssn 123456", "ssn [number]", "six digits are masked"},
		{"v1.2.3 at 10:30", "v1.2.3 at 10:30", "versions and times are kept"},
		{"not@an", "not@an", "no domain, not an address"},
	}
	for _, tt := range tests {
		if got := Basic(tt.in); got != tt.want {
			t.Errorf("Basic(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.why)
		}
	}
}

func BenchmarkBasic(b *testing.B) {
	s := "Dear Ann, your order 12345 ships today; reply to ann@example.com or call 020 7946 0958."
	for b.Loop() {
		Basic(s)
	}
}
