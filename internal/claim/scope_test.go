package claim

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// scopePlain is scope as it was before it grew dst once and split words
// without a slice: kept to check that claims' scopes do not change.
func (p *parser) scopePlain(s int, dst []string) []string {
	if p.scopes == nil {
		p.scopes = make([][]string, len(p.sents))
	}
	if p.scopes[s] == nil {
		st := p.sents[s]
		ws := make([]string, 0, st.n)
		for k := st.first; k < st.first+st.n; k++ {
			t := p.toks[k]
			if p.owner[k] != 0 {
				continue
			}
			w := t.s
			if t.hangul {
				w = stripParticle(w)
				if len([]rune(w)) < 2 {
					continue
				}
			} else if len(w) < 3 || scopeStop().Has(w) || roleWords().Has(w) || isNumber(w) {
				continue
			}
			for _, part := range strings.FieldsFunc(w, func(r rune) bool { return r == '_' || r == '-' || r == '/' || r == '.' }) {
				if len(part) >= 3 && !scopeStop().Has(part) && !roleWords().Has(part) {
					ws = append(ws, stem(part, t.hangul))
				}
			}
		}
		slices.Sort(ws)
		p.scopes[s] = slices.Compact(ws)
	}
	for _, w := range p.scopes[s] {
		if !slices.Contains(dst, w) {
			dst = append(dst, w)
		}
	}
	slices.Sort(dst)
	return dst
}

// parsedForScope returns text's parser with its mentions found, as Parse has it
// before it reads the claims.
func parsedForScope(text string) *parser {
	toks, sents := tokenize(text)
	p := &parser{text: text, toks: toks, sents: sents, owner: make([]int16, len(toks))}
	p.mark()
	p.find()
	p.shaped()
	p.partners()
	return p
}

func checkScope(t *testing.T, text string) {
	t.Helper()
	fast, plain := parsedForScope(text), parsedForScope(text)
	var a, b []string
	for s := range fast.sents {
		// Each sentence into the scope so far, as a claim said over
		// several sentences gathers it, and alone.
		a, b = fast.scope(s, a), plain.scopePlain(s, b)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("scope of %q to sentence %d = %q, want %q", text, s, a, b)
		}
		if x, y := fast.scope(s, nil), plain.scopePlain(s, nil); !reflect.DeepEqual(x, y) {
			t.Fatalf("scope of %q sentence %d = %q, want %q", text, s, x, y)
		}
	}
}

// TestScopeSame is an equivalence test: scope against scopePlain.
func TestScopeSame(t *testing.T) {
	for _, text := range []string{
		"", "ok", "We switched from jest to vitest for the web-client unit tests.",
		"Netlify 대신 이제 Render로 배포합니다. 배포는 매일 합니다.",
		"The weekly_report job moves to 06:15 UTC; the staging.log-rotate stays at 03:00.",
		"Use src/lib/http_client.ts for the order-service calls. Payments keep their own retry-policy module.",
		"a_b-c/d.e f.g_h i-j-k lmn opq rst uvw", "Postgres 15 to 16", "\xff\xfe abc_def",
		strings.Repeat("orders-api and billing_worker share the queue-consumer config. ", 20),
	} {
		checkScope(t, text)
	}
}

func FuzzScopeSame(f *testing.F) {
	for _, s := range []string{"a_b-c d.e", "We use pnpm for the mono-repo. Keep it.", "배포는 Fly.io로"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkScope(t, s) })
}

// TestQualifier: the words naming an environment or a component, in any
// language the qualifier sets hold, and no others.
func TestQualifier(t *testing.T) {
	t.Parallel()
	for w, want := range map[string]bool{"production": true, "staging": true, "backend": true, "프론트엔드": true,
		"deployment": false, "postgres": false, "productions": false, "": false} {
		if got := Qualifier(w); got != want {
			t.Errorf("Qualifier(%q) = %v, want %v", w, got, want)
		}
	}
}
