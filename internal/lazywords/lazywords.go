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
