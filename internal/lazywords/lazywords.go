// Package lazywords provides sets of words built at their first lookup
// rather than at program start. Every hook binary links the claim and
// recall packages, and most processes (a tool call's, a session start's)
// never look a word up, where building their sets was most of those
// packages' start-up (see lazyregexp for the expressions).
package lazywords

import (
	"strings"
	"sync"
)

// Set returns the set of the words of s, split at white space; the set is
// built the first time the returned function is called, and every call
// returns that same map. The map is shared by all callers (and goroutines):
// they must only read it, never change it. The words are split then too:
// splitting them at start-up was half of what a set cost a process that
// never looked a word up.
func Set(s string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		m := make(map[string]bool, strings.Count(s, " ")+strings.Count(s, "\n")+1)
		for w := range strings.FieldsSeq(s) {
			m[w] = true
		}
		return m
	})
}

// Of is Set for words given one by one.
func Of(words ...string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		m := make(map[string]bool, len(words))
		for _, w := range words {
			m[w] = true
		}
		return m
	})
}

// Words is a set of words that answers most lookups of a word it does not
// hold without hashing it: a bit for the hash of the length and the first
// two and last bytes of each of its words rules out most other words at
// once. The claim parser looks each token up in several such sets, and
// nearly every lookup is of a word the set lacks: on the bench session's
// sentences 240,738 lookups, 21,707 of words a set holds, 6,307 more past
// the bits.
type Words struct {
	m    map[string]bool
	bits [16]uint64
}

// shapeBit hashes a word's length and its first two and last bytes.
func shapeBit(w string) uint {
	if w == "" {
		return 0
	}
	h := uint32(len(w))*0x9E3779B1 ^ uint32(w[0])*0x85EBCA77 ^ uint32(w[len(w)-1])*0xC2B2AE3D
	if len(w) > 1 {
		h ^= uint32(w[1]) * 0x27D4EB2F
	}
	return uint(h>>22) & 1023
}

// NewWords returns the set of the keys of m that are true, as Words; m
// is the set's from then on, and no one may change it.
func NewWords(m map[string]bool) *Words {
	ws := &Words{m: m}
	for w := range m {
		h := shapeBit(w)
		ws.bits[h/64] |= 1 << (h % 64)
	}
	return ws
}

// Has reports whether the set holds w: what the set's map says of w.
func (ws *Words) Has(w string) bool {
	h := shapeBit(w)
	return ws.bits[h/64]&(1<<(h%64)) != 0 && ws.m[w]
}

// Lookup is Set as Words: built the first time the returned function is
// called, the same set on every call after.
func Lookup(s string) func() *Words {
	set := Set(s)
	return sync.OnceValue(func() *Words { return NewWords(set()) })
}

// LookupOf is Of as Words.
func LookupOf(words ...string) func() *Words {
	set := Of(words...)
	return sync.OnceValue(func() *Words { return NewWords(set()) })
}
