package extract

import "strings"

// A finding states what a failing run showed against what was expected:
// "the p95 is 340 ms instead of below 250 ms", "p95가 250ms가 아니라
// 340ms입니다". Said right after a failure and followed by the fix the
// assistant made (an edit, or the command passing again), it is a lesson
// learnt by looking, not a guess: the finding is its cause.

// findingVerbs put an observed value before "instead of".
var findingVerbs = []string{" is ", " was ", " are ", " were ", " got ", " gets ", " returns ", " returned ",
	" gives ", " gave ", " shows ", " showed ", " comes out ", " came out ", " prints ", " printed "}

// findingContrasts set the observed value against the expected one.
var findingContrasts = []string{" instead of ", "가 아니라 ", "이 아니라 "}

// editTools change files: an edit right after a finding is its fix.
var editTools = []string{"Edit", "MultiEdit", "Write", "NotebookEdit"}

// isFinding reports a sentence that contrasts an observed value with an
// expected one, with a verb of observation before the contrast in English.
func isFinding(low string) bool {
	for _, c := range findingContrasts {
		at := strings.Index(low, c)
		if at <= 0 {
			continue
		}
		if c != " instead of " {
			return true // the Korean contrast is itself the finding
		}
		before := low[:at]
		for _, v := range findingVerbs {
			if strings.Contains(before, v) {
				return true
			}
		}
	}
	return false
}

// finding makes a lesson of sentence k when it is a finding about the
// failure just before its message and the session then fixed it. It
// reports whether it did.
func (x *extractor) finding(ss []*sent, k int) bool {
	s := ss[k]
	if s.user || !isFinding(s.low) {
		return false
	}
	t, ok := x.justFailed(s.msg)
	if !ok {
		return false
	}
	edited, resolved := x.editsNext(s.msg), x.passesLater(t.msg)
	if !edited && !resolved {
		return false // a finding nobody acted on is no lesson yet
	}
	off, q := s.quote(s.body)
	c := &cand{typ: Lesson, score: 2.5, seq: len(x.cands), from: s.msg, diagnosed: true, fixed: true, resolved: resolved,
		ev: []evi{t, {s.msg, off, q}}}
	c.body = clean(s.norm)
	if k+1 < len(ss) && announcesFix(ss[k+1]) {
		n := ss[k+1]
		off, q := n.quote(n.body)
		c.ev = append(c.ev, evi{n.msg, off, q})
		c.body = joinBody("Cause: "+c.body, "Fix: "+clean(n.norm))
		n.used = true
	}
	describeLesson(s, hit{typ: Lesson, at: s.body, end: s.body, k: cause}, c)
	x.cands = append(x.cands, c)
	return true
}

// justFailed returns the failure line of the tool call just before message
// i when that call failed: a finding said right after a failing run is about
// that run, whether or not it repeats the failure's words.
func (x *extractor) justFailed(i int) (evi, bool) {
	for j := i - 1; j >= 0 && j > x.turn; j-- {
		switch strings.ToLower(x.msgs[j].Role) {
		case "assistant":
			continue
		case "tool":
			if off, q, ok := failureLine(x.msgs[j].Text); ok {
				return evi{j, off, q}, true
			}
		}
		return evi{}, false
	}
	return evi{}, false
}

// editsNext reports whether the first tool call after message i, before the
// next user message, edits a file.
func (x *extractor) editsNext(i int) bool {
	for _, m := range x.msgs[i+1:] {
		switch strings.ToLower(m.Role) {
		case "user", "human":
			return false
		case "tool":
			name, _, _ := strings.Cut(m.Text, ":")
			return in(editTools, name)
		}
	}
	return false
}

// announcesFix reports a sentence saying what the assistant changes next:
// "Let me relax that bound", "I'll raise the timeout", "기준을 완화하겠습니다".
func announcesFix(s *sent) bool {
	b := leadText(s.low)
	for _, p := range []string{"let me ", "i'll ", "i will ", "so i'll ", "let's "} {
		if strings.HasPrefix(b, p) {
			w := firstWord(b[len(p):])
			return !in([]string{"check", "look", "see", "run", "verify", "try", "read", "investigate", "debug", "find"}, w)
		}
	}
	return firstPersonChange(s) || strings.Contains(s.low, "하겠습니다") && !strings.Contains(s.low, "확인")
}
