package claim

import "sync"

// Cache keeps the claims of texts parsed before: an import parses the same
// sentences and entry texts session after session (a decision restated,
// an entry compared with the same rivals). Most texts are seen once, so it
// keeps two generations: when the current one is full it becomes the
// previous one, and a text found there moves back. The texts used again
// and again so stay, where forgetting everything when full parsed them all
// again each time it filled.
//
// The claims it returns are shared: callers must not change them. A nil
// *Cache parses every time. It is safe for concurrent use.
type Cache struct {
	mu        sync.Mutex
	m, before map[string][]Claim
}

// MaxCached bounds the texts a Cache holds in one generation; with the
// previous generation it holds up to twice as many.
const MaxCached = 20000

// Parse is Parse(text), from the cache when text was parsed before.
func (c *Cache) Parse(text string) []Claim {
	if c == nil {
		return Parse(text)
	}
	c.mu.Lock()
	cs, ok := c.m[text]
	if !ok {
		if cs, ok = c.before[text]; ok {
			c.keep(text, cs)
		}
	}
	c.mu.Unlock()
	if ok {
		return cs
	}
	cs = Parse(text)
	c.mu.Lock()
	c.keep(text, cs)
	c.mu.Unlock()
	return cs
}

// keep adds a text's claims to the current generation, starting a new one
// when it is full. The caller holds mu.
func (c *Cache) keep(text string, cs []Claim) {
	if c.m == nil || len(c.m) >= MaxCached {
		c.before, c.m = c.m, map[string][]Claim{}
	}
	c.m[text] = cs
}
