package lazyregexp

import "testing"

func TestLazy(t *testing.T) {
	r := &Regexp{str: `(?i)\bport (\d+)`}
	if r.rx != nil {
		t.Fatal("compiled before use")
	}
	if m := r.FindStringSubmatch("listens on PORT 8080"); len(m) != 2 || m[1] != "8080" {
		t.Fatalf("FindStringSubmatch = %q", m)
	}
	if !r.MatchString("port 1") || r.MatchString("no number") {
		t.Fatal("MatchString")
	}
	if !inTest {
		t.Fatal("a test binary is not seen as one: bad expressions would not fail its tests")
	}
}

func TestBadExpressionFailsAtFirstUse(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a bad expression compiled")
		}
	}()
	(&Regexp{str: `(`}).MatchString("x")
}
