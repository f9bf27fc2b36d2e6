package jsondepth

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestWithin(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		max  int
		want bool
	}{
		{``, 0, true},
		{`{}`, 1, true},
		{`{}`, 0, false},
		{`{"a":[1,{"b":2}]}`, 3, true},
		{`{"a":[1,{"b":2}]}`, 2, false},
		{`{"a":"[[[[[[["}`, 1, true},        // brackets inside a string do not count
		{`{"a":"\"[[[[","b":1}`, 1, true},   // nor after an escaped quote
		{`{"a":"\\","b":[[[]]]}`, 3, false}, // an escaped backslash ends the escape
		{`]]]]{`, 1, true},                  // not JSON; the parser behind rejects it
		{strings.Repeat("[", 20), 19, false},
	} {
		if got := Within(tt.in, tt.max); got != tt.want {
			t.Errorf("Within(%q, %d) = %v, want %v", tt.in, tt.max, got, tt.want)
		}
	}
}

// FuzzWithin: Within never panics, agrees with itself on string and bytes,
// and whenever it accepts valid JSON at Max, gjson can walk it.
func FuzzWithin(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"]"}]}`, `"\\"`, `[[[`, `{"a":"\u005b"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ok := Within(s, Max)
		if ok != Within([]byte(s), Max) {
			t.Fatal("string and bytes disagree")
		}
		if ok && gjson.Valid(s) {
			gjson.Parse(s).ForEach(func(_, _ gjson.Result) bool { return true })
		}
	})
}

// TestDeepInputStaysOnTheStack: the depth that overflowed the stack is
// rejected without recursion.
func TestDeepInputStaysOnTheStack(t *testing.T) {
	t.Parallel()
	const n = 10_000_000
	b := make([]byte, 0, 2*n)
	b = append(b, strings.Repeat("[", n)...)
	b = append(b, strings.Repeat("]", n)...)
	if Within(b, Max) {
		t.Fatalf("%d levels accepted", n)
	}
}
