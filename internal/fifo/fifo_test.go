package fifo

import "testing"

func TestMap(t *testing.T) {
	c := New[int, string](3)
	for i := range 5 {
		c.Put(i, string(rune('a'+i)))
	}
	if c.Len() != 3 {
		t.Fatalf("Len() = %d, want 3", c.Len())
	}
	for i, want := range map[int]bool{0: false, 1: false, 2: true, 3: true, 4: true} {
		if _, ok := c.Get(i); ok != want {
			t.Errorf("Get(%d) held = %v, want %v (the oldest go first)", i, ok, want)
		}
	}
	c.Put(2, "z")
	if v, _ := c.Get(2); v != "c" {
		t.Errorf("Put of a held key replaced its value: got %q, want %q", v, "c")
	}
	c.Put(5, "f") // drops 2, the oldest left
	if _, ok := c.Get(2); ok {
		t.Error("2 is still held after a sixth key")
	}
	if z := New[string, int](0); z.max != 1 {
		t.Errorf("New(0) bound %d, want 1", z.max)
	}
}
