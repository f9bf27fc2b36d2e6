package extract

import (
	"reflect"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
)

// acrossPlain is across as it was before it asked for the sentence's own
// claims first: kept to check that parsing the neighbour only when it can
// matter answers the same.
func (x *extractor) acrossPlain(ss []*sent, k, j int) (claim.Claim, bool) {
	if j < 0 || j >= len(ss) || ss[j].msg != ss[k].msg {
		return claim.Claim{}, false
	}
	neighbour := x.parsed(ss[j])
	if len(neighbour) == 0 {
		return claim.Claim{}, false
	}
	own := x.parsed(ss[k])
	worth := false
	for _, c := range own {
		for _, n := range neighbour {
			sameKind := n.Role == c.Role || claim.Identifier(n.Role) && claim.Identifier(c.Role)
			if !sameKind || n.Value == c.Value {
				continue
			}
			if claim.Identifier(c.Role) {
				worth = worth || c.Changed && n.Negated
			} else {
				worth = worth || c.Changed || n.Negated || n.Replaces != ""
			}
		}
	}
	if !worth && (len(own) > 0 || !strings.ContainsAny(ss[k].text, "0123456789") || !claim.ChangeCue(ss[k].text)) {
		return claim.Claim{}, false
	}
	a, b := ss[min(k, j)], ss[max(k, j)]
	for _, c := range claim.Parse(a.text + "\n" + b.text) {
		if c.Replaces == "" || c.Negated {
			continue
		}
		own := false
		for _, n := range neighbour {
			own = own || n.Role == c.Role && n.Value == c.Value && !n.Negated
		}
		if !own {
			return c, true
		}
	}
	return claim.Claim{}, false
}

// checkAcross compares across with acrossPlain for every pair of
// neighbouring sentences of text, as a user's and as an assistant's.
// Each side gets its own extractor, so neither reuses the other's parses.
// It returns how many pairs found a change.
func checkAcross(t *testing.T, text string) int {
	t.Helper()
	found := 0
	for _, user := range []bool{true, false} {
		spans := sentences(text)
		ss := make([]*sent, len(spans))
		for k, sp := range spans {
			ss[k] = newSent(0, sp.start, text[sp.start:limit(text, sp.start, sp.end)], user)
		}
		var fast, plain extractor
		for k := range ss {
			for _, j := range []int{k - 1, k + 1} {
				c1, ok1 := fast.across(ss, k, j)
				c2, ok2 := plain.acrossPlain(ss, k, j)
				if ok1 != ok2 || !reflect.DeepEqual(c1, c2) {
					t.Fatalf("across(%q, %d, %d) = %+v, %v; plain form %+v, %v", text, k, j, c1, ok1, c2, ok2)
				}
				if ok1 {
					found++
				}
			}
		}
	}
	return found
}

func TestAcrossSame(t *testing.T) {
	found := 0
	for _, s := range testSessions(t) {
		for _, m := range s.Messages {
			found += checkAcross(t, m.Text)
		}
	}
	// Invented changes said over two sentences, with and without numbers.
	for _, text := range []string{
		"The retry delay of 15s was too short. Make it 70s from now on.",
		"Nightly jobs ran at 02:00. Move them to 03:30 instead.",
		"We dropped Kestrelq. Background jobs go to Zephyr streams now.",
		"Renamed the repo to orbit/core. Stop pushing orbit/legacy.",
		"Set the pool to 40 instead. It was 12 before.",
		"Why is it 20? Change it to 25 instead.",
		"앞으로 45초로 바꿔 주세요. 타임아웃이 너무 짧아요.",
	} {
		found += checkAcross(t, text)
	}
	if found == 0 {
		t.Fatal("no pair of sentences said a change: the comparison checked only refusals")
	}
}

// FuzzAcrossSame is TestAcrossSame on arbitrary text.
func FuzzAcrossSame(f *testing.F) {
	for _, seed := range []string{"", "Use 30s. It was 10s instead.", "x 5 instead. y", "Switch to Nimbo. We no longer use Pellet.", "\xff 9 대신"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) { checkAcross(t, text) })
}

// TestNoiseSame is an equivalence test: noise, which keeps its answer on
// the sentence, against noiseOf on a fresh sentence of the same text and
// shape, before and after the sentence is cut and its shape or plan
// changes.
func TestNoiseSame(t *testing.T) {
	n := 0
	for _, sess := range testSessions(t) {
		for _, m := range sess.Messages {
			for _, user := range []bool{true, false} {
				for _, sp := range sentences(m.Text) {
					s := newSent(0, sp.start, m.Text[sp.start:limit(m.Text, sp.start, sp.end)], user)
					s.shape = sp.shape
					check := func(what string) {
						t.Helper()
						fresh := newSent(0, 0, s.text, user)
						fresh.shape, fresh.planned, fresh.body = s.shape, s.planned, s.body
						fresh.index()
						if got, want := noise(s), noiseOf(fresh); got != want {
							t.Fatalf("%s: noise(%q) = %d, want %d", what, s.text, got, want)
						}
						n++
					}
					check("new")
					check("again")
					s.planned = !user
					check("planned")
					s.shape ^= shapeBullet
					check("shape")
					if k := strings.IndexByte(s.norm, ' '); k > 0 {
						s.cut(k)
						check("cut")
					}
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("checked only %d sentences", n)
	}
}
