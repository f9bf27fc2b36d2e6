package claim

import (
	"slices"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/lazywords"
)

// Marker words near a value say which side of a change it is on. Strong
// rejections ("no longer", "stop", "deprecated") make a lone value negated;
// weak ones ("from", "instead of") only tell old from new when a statement
// names both.
var (
	strongBefore = lazywords.Lookup(`not no never stop stopped stopping avoid drop dropping remove removing ditch ditched
		retire retired deprecate deprecated deprecating cancel cancelled canceled abandon abandoned longer ban banned
		don't doesn't shouldn't mustn't won't ` + removalList)
	// removals, of strongBefore, report the thing named after them gone
	// ("removed `fetchMock()`"): done, not asked for ("remove X"), planned
	// or refused ("don't use X").
	removals   = lazywords.Lookup(removalList)
	weakBefore = lazywords.Lookup(`from off instead than old former previous away replace replaced replaces replacing supersedes migrate migrated
		migrating 대신`)
	strongAfter = lazywords.Lookup(`not deprecated removed anymore longer retired dropped gone eol end-of-life obsolete 더 그만 말고 빼고
		폐기 중단`)
	weakAfter = lazywords.Lookup(`turned too broke broken doesn't don't didn't can't won't fails failed failing collides collided
		was were slow slower replaced takes took kept out unsupported 대신 너무 대신에`)
	rejectBefore = lazywords.Lookup(`instead than old former previous away replace replaced replaces replacing supersedes 대신`)
	newBefore    = lazywords.Lookup(`to onto into use using uses adopt adopted choose chose prefer preferred now switch switched
		move moved migrate by favor favour target targets targeting 이제 with`)
	newAfter = lazywords.Lookup(`instead replaces now`)
)

// removalList are the words of removals.
const removalList = `dropped removed`

// removedFrom are the words after a removed thing that say where it was
// removed from, going on with the removal's statement.
var removedFrom = lazywords.Lookup(`from in out of`)

// window is how many tokens a marker may stand from its value.
const window = 3

// markers reads the marker words around each mention.
func (p *parser) markers() {
	for mi := range p.ms {
		m := &p.ms[mi]
		sent := p.toks[m.first].sent
		if p.fromInside(mi) {
			// "updated Next.js from 16.0.3 to 16.0.7": the verb before
			// the product takes the product, not the version.
			m.old = true
			continue
		}
		placed := false
		for k, n := m.first-1, 0; k >= 0 && n < window; k, n = k-1, n+1 {
			t := p.toks[k]
			if t.sent != sent || (p.owner[k] != 0 && p.ms[p.owner[k]-1].role == m.role) || p.clauseBreak(k) {
				break
			}
			w := t.s
			if t.hangul {
				w = stripParticle(w)
			}
			if n == 0 && namedRoles[m.role] && placeWords().Has(w) {
				placed = true
			}
			if placed && plainNegation().Has(w) && !p.placeChanged(m) {
				// "the task is not defined in F", "it won't load in F": a
				// path after "in" is where the statement looks, and a
				// plain "not" is about what is there. A change of place
				// ("no longer lives in F", "not in F any more; it moved
				// to G") still rejects it.
				break
			}
			if w == "from" && !p.cue[sent] && !p.toAfter(m) {
				// "can't reach X from the Y network": with no change said
				// and no "to" after it, "from" says where from, not what
				// was replaced.
				break
			}
			if (w == "from" || w == "off") && !p.objectOf(k, m) {
				// "the token from the vault → Kelbo": the word after
				// "from" is where it comes from, not the value.
				break
			}
			switch {
			case strongBefore().Has(w):
				m.old, m.neg = true, true
				m.removed = removals().Has(w) && p.done(k)
			case weakBefore().Has(w) && (rejectBefore().Has(w) || !namedRoles[m.role] || p.toAfter(m)):
				// "replace X with Y" rejects X even when Y fills another
				// role; "built from X" does not reject X, and a path or
				// name is old after "from" only in "from X to Y" ("cut
				// from develop" is no change of branch).
				m.old = true
				m.neg = m.neg || rejectBefore().Has(w)
			case (w == "use" || w == "using") && k > 0 && p.toks[k-1].sent == sent && strongBefore().Has(p.toks[k-1].s):
				// "stop using X", "don't use X", "no longer use X"
				m.old, m.neg = true, true
			case newBefore().Has(w) && !(w == "with" && !p.replaceBefore(k)) && !(w == "now" && n > 0 && !p.nowOfVerb(k)) &&
				!(imagined().Has(w) && k > 0 && p.toks[k-1].sent == sent && modals().Has(p.toks[k-1].s)):
				// Each condition says when a new-value word marks nothing:
				//
				// "with" marks the new value only after "replace(d) X".
				//
				// "now" marks the value right after it ("is now 5s"), or
				// the one its verb takes after a subject ("the API now
				// runs on X"): "now that 3.9 is out" does not make 3.9
				// new.
				//
				// "you would pick X for …", "we could adopt X": a verb of
				// choosing after a modal is a case imagined, not the value
				// chosen.
				if !m.old {
					m.new = true
					m.moved = changeNew().Has(w) && (w != "now" || p.nowMarks(k)) || (w == "to" || w == "into" || w == "onto") && p.movedBefore(k)
				}
			default:
				continue
			}
			break
		}
		if m.listed > 0 {
			// "Removed `a` and `b`": each takes what befell the one before
			// it, so all take the first's.
			l := p.ms[m.listed-1]
			m.old, m.neg, m.removed = l.old, l.neg, l.removed
		}
		if p.installs(m) {
			// "pip install --user poetry": the tool that installs another
			// is the means, neither chosen over it nor replacing it.
			m.weak = true
		}
		last := p.toks[m.last]
		if strings.HasPrefix(last.particle, "로") || strings.HasSuffix(last.particle, "으로") || strings.HasSuffix(last.particle, "로") {
			// "X로 옮겼어요": the particle marks where a change goes; it
			// moved the value when the statement says a change.
			m.new = true
			m.moved = m.moved || p.cue[sent]
		}
		for k, n := m.last+1, 0; k < len(p.toks) && n < window; k, n = k+1, n+1 {
			t := p.toks[k]
			if t.sent != sent || (p.owner[k] != 0 && p.ms[p.owner[k]-1].role == m.role) || p.clauseBreak(k-1) {
				break
			}
			w := t.s
			if t.hangul {
				if n == 0 && (w == "로" || w == "으로" || strings.HasPrefix(w, "으로")) {
					m.new = true
					m.moved = m.moved || p.cue[sent]
					break
				}
				w = stripParticle(w)
			}
			switch {
			case removals().Has(w) && p.removesNext(k, m):
				// "Updated `pyproject.toml` - removed `rag`", "… and
				// dropped `kelbo`": the removal takes the value after it,
				// not the one before.
			case strongAfter().Has(w):
				if !m.new {
					m.old, m.neg = true, true
				}
			case weakAfter().Has(w):
				if !m.new {
					m.old = true
				}
			case newAfter().Has(w):
				// "X instead", "X now": the value set. "now" says the
				// change only as its own marker: not in "from now on" (a
				// time, said of what is added as much as of what is
				// moved) nor beside a word that adds ("also", "added").
				m.new = true
				m.moved = m.moved || w != "now" || p.nowMarks(k)
			default:
				continue
			}
			break
		}
	}
}

// removesNext reports whether the removal word at token k takes another
// mention than m as its object: one right after it in its clause, or past
// one word describing it and a determiner, as removedCode reads them
// ("removed the incorrect `rag`"). A function word between says the
// mention is not the object: "`kelbo` removed from `config.yml`" removes
// kelbo.
func (p *parser) removesNext(k int, m *mention) bool {
	described := false
	for j := k + 1; j <= k+3 && j < len(p.toks) && p.toks[j].sent == p.toks[k].sent && !p.clauseBreak(j-1); j++ {
		if o := p.owner[j]; o != 0 {
			return &p.ms[o-1] != m && !p.secondHalf(p.ms[o-1].last)
		}
		w := p.toks[j].s
		switch {
		case determiners().Has(w) && !described:
			continue
		case described || !describing(w):
			return false
		}
		described = true
	}
	return false
}

// secondHalf reports whether the words right after a value's last token
// say what befell it, as the removal said what befell the value before
// it: "`jest` removed `vitest` added", "Node 18 dropped, Node 20 now" in a
// terse list of changes. The removal then takes the value before it.
func (p *parser) secondHalf(last int) bool {
	for j := last + 1; j <= last+2 && j < len(p.toks) && p.toks[j].sent == p.toks[last].sent && !p.clauseBreak(j-1); j++ {
		if w := p.toks[j].s; addWords().Has(w) || newAfter().Has(w) || newBefore().Has(w) || strongAfter().Has(w) {
			return true
		}
	}
	return false
}

// done reports whether the verb at token k reports what was done and
// stays so: its statement asks nothing ("Should we have removed X?") nor
// makes the thing again ("removed X and reinstalled it"), no negation or
// modal comes right before it ("haven't removed", "should have dropped",
// "nobody removed"), and its clause states no condition ("if we removed X").
func (p *parser) done(k int) bool {
	st := p.sents[p.toks[k].sent]
	if strings.HasSuffix(strings.TrimRight(p.text[st.start:st.end], " *_`\"'”)"), "?") {
		return false
	}
	for j := st.first; j < st.first+st.n; j++ {
		if remakes().Has(p.toks[j].s) {
			return false
		}
	}
	for j := k - 1; j >= st.first; j-- {
		w := p.toks[j].s
		if j >= k-3 && (plainNegation().Has(w) || modals().Has(w) || undone().Has(w) || strings.HasSuffix(w, "n't")) {
			return false
		}
		if conditions().Has(w) {
			return false
		}
		if p.clauseBreak(j - 1) {
			break
		}
	}
	return true
}

var (
	// undone, before a verb, say it was not or is not yet done: a modal of
	// duty or of the future, "yet", "nobody".
	undone = lazywords.Lookup(`should must will shall yet nobody nothing`)
	// conditions open a clause of what would follow if it held.
	conditions = lazywords.Lookup(`if unless once whether`)
	// remakes say a thing was made again: what was removed with one of
	// them in the same statement was reset, not dropped.
	remakes = lazywords.Lookup(`reinstall reinstalled reinstalling regenerate regenerated regenerating rebuild rebuilt
		rebuilding recreate recreated recreating re-add re-added readded restore restored restoring`)
)

// changedCounts marks the sides of each count changed (tally): whatever
// words stand around them, the first is the old value and the second the new.
func (p *parser) changedCounts() {
	for _, c := range p.counted {
		o, n := &p.ms[c[0]], &p.ms[c[1]]
		o.old, o.new, o.neg, o.tally = true, false, false, false
		n.new, n.old, n.neg, n.tally, n.moved = true, false, false, false, true
	}
}

// weakenOffered makes weak the mentions in an offer's clause
// ("alternatively, X could do it"): an offered clause decides nothing,
// whatever it says ("from X to Y", "replace X"). A change said outside it
// ("Option B is what we did: moved from X to Y") is read as any other.
func (p *parser) weakenOffered() {
	for mi := range p.ms {
		if p.offered[p.ms[mi].first] {
			p.ms[mi].weak = true
		}
	}
}

// changeNew mark the value after them as the one a change sets ("now X",
// "switched to X"), unlike "use X", which may state what already is.
var changeNew = lazywords.Lookup(`now switch switched move moved migrate migrated adopt adopted`)

// movedBefore reports a changeNew word before the "to" at token k in its
// clause ("moved the queue to X", "moved the database over to X").
func (p *parser) movedBefore(k int) bool {
	for j := k - 1; j >= 0 && p.toks[j].sent == p.toks[k].sent && !p.clauseBreak(j); j-- {
		if changeNew().Has(p.toks[j].s) && (p.toks[j].s != "now" || p.nowMarks(j)) {
			return true
		}
	}
	return false
}

// nowOfVerb reports a "now" at token k that stands between a subject and
// its verb ("the API now runs on X"): not the clause's first word ("now
// let me run X") and not "now that".
func (p *parser) nowOfVerb(k int) bool {
	return k > 0 && k+1 < len(p.toks) && p.toks[k-1].sent == p.toks[k].sent && !p.clauseBreak(k-1) &&
		p.toks[k+1].s != "that" && p.nowMarks(k)
}

// nowMarks reports whether the "now" at token k says a change of its own:
// not a time ("from now on", "for now", "right now") nor the time of an
// addition ("we added X now", "it also uses X now").
func (p *parser) nowMarks(k int) bool {
	if k > 0 && p.toks[k-1].sent == p.toks[k].sent && notChange().Has(p.toks[k-1].s) {
		return false
	}
	first, end := k, k
	for first > 0 && p.toks[first-1].sent == p.toks[k].sent && !p.clauseBreak(first-1) {
		first--
	}
	for end+1 < len(p.toks) && p.toks[end+1].sent == p.toks[k].sent && !p.clauseBreak(end) {
		end++
	}
	return !slices.ContainsFunc(p.toks[first:end+1], func(t token) bool { return addWords().Has(t.s) })
}

// addWords say that a value comes beside another, not in its place.
var addWords = lazywords.Lookup(`also too add adds added adding`)

// doneWords say a change made, not offered ("we replaced X", "the
// exports moved to Y").
var doneWords = lazywords.Lookup(`replaced moved switched migrated adopted chose dropped removed retired ditched abandoned`)

// objectOf reports whether mention m is what the preposition at token k
// governs: only determiners and words for the former one ("from our old
// X") stand between them, or, when "to Y" follows in a statement that
// says a change, any words that open a noun phrase ("migrated from hosted
// X to Y", not "we sync from hosted X to Y").
func (p *parser) objectOf(k int, m *mention) bool {
	to := p.toAfter(m) && p.cue[m.sent]
	for j := k + 1; j < m.first; j++ {
		w := p.toks[j].s
		if determiners().Has(w) || rejectBefore().Has(w) {
			continue
		}
		if !to || p.owner[j] != 0 || placeWords().Has(w) || w == "to" || w == "from" || strings.ToLower(p.text[p.toks[j].start:p.toks[j].end]) != p.text[p.toks[j].start:p.toks[j].end] {
			return false
		}
	}
	return true
}

// placeChanged reports whether the statement of mention m says that a
// place changed, so that a plain negation before "in F" rejects F: it
// carries change wording, says "never … again" or "not … any more" of the
// place, or it or the next one marks another value of m's role as new
// ("…; they moved to G", "G now") or names one in change wording ("…;
// G holds them from now on"). "It won't load in F again until …" and "no
// better in F any more than in G" are failures, not moves.
func (p *parser) placeChanged(m *mention) bool {
	s := p.sents[m.sent]
	if p.cue[m.sent] {
		return true
	}
	end := s.first + s.n
	never := false
	for k := s.first; k < end; k++ {
		w := p.toks[k].s
		never = never || w == "never"
		after := ""
		if k+1 < end && !p.clauseBreak(k) {
			after = p.toks[k+1].s
		}
		switch {
		case w == "again" && never && !timeClause().Has(after),
			(w == "anymore" || w == "more" && k > s.first && p.toks[k-1].s == "any") && after != "than":
			return true
		}
	}
	for _, o := range p.ms {
		if (o.sent == m.sent || o.sent == m.sent+1) && o.role == m.role && o.value != m.value &&
			(p.markedNew(o) || o.sent != m.sent && p.cue[o.sent]) {
			return true
		}
	}
	return false
}

// timeClause words open a clause that says when ("again until we fix
// it", "again after a rebase").
var timeClause = lazywords.Lookup(`until till after when once unless before if`)

// markedNew reports a new-value word right before or right after mention o.
func (p *parser) markedNew(o mention) bool {
	if k := o.first - 1; k >= 0 && p.toks[k].sent == o.sent && !p.clauseBreak(k) && newBefore().Has(p.toks[k].s) {
		return true
	}
	k := o.last + 1
	return k < len(p.toks) && p.toks[k].sent == o.sent && !p.clauseBreak(o.last) && newAfter().Has(p.toks[k].s)
}

// modals make the choice after them a case imagined ("you would pick X
// for …"); imagined are the verbs of choosing they do it to.
var (
	modals   = lazywords.Lookup(`would could might can may you'd we'd i'd they'd`)
	imagined = lazywords.Lookup(`use using adopt choose pick prefer switch move migrate`)
)

// placeWords put a path where something is ("in F").
var placeWords = lazywords.Lookup(`in inside within`)

// plainNegation denies without saying a change ("is not defined"), unlike
// "no longer" or "dropped".
var plainNegation = lazywords.Lookup(`not never don't doesn't didn't isn't aren't can't won't`)

// installWords run an installation ("npm install", "yarn add", "npm i").
var installWords = lazywords.Lookup(`install i add`)

// installs reports a mention that runs the installation of another value of
// its role ("pip install --user poetry", "gem install bundler"): the first command
// word after it installs, and the next value after it, past flags, has its
// role.
func (p *parser) installs(m *mention) bool {
	k := m.last + 1
	if k >= len(p.toks) || p.toks[k].sent != p.toks[m.last].sent || !installWords().Has(p.toks[k].s) || !onlySpace(p.text[p.toks[m.last].end:p.toks[k].start]) {
		return false
	}
	for k++; k < len(p.toks) && k <= m.last+4 && p.toks[k].sent == p.toks[m.last].sent; k++ {
		if o := p.owner[k]; o != 0 {
			return p.ms[o-1].role == m.role
		}
		if !p.flag(k) {
			return false // only flags ("-g", "--global") stand between
		}
	}
	return false
}

// offerWords open a statement that offers an alternative rather than
// deciding ("Alternatively, …", "Optionally, …").
var offerWords = lazywords.Lookup(`alternatively optionally`)

// planWords say that what follows them in their clause is planned or
// proposed, not done.
var planWords = lazywords.Lookup(`plan plans planning planned propose proposes proposed proposing proposal`)

// planned reports whether the plan word at token k is followed in its
// clause, within three words, by "to" or a word of change ("plan to move",
// "plan a migration"): the plan is of a change, not a thing ("the plan has
// 9 steps").
func (p *parser) planned(k, end int) bool {
	for j := k + 1; j < end && j <= k+3 && !p.clauseBreak(j-1); j++ {
		if w := p.toks[j].s; w == "to" || slices.ContainsFunc(cueVerbs, func(v string) bool { return strings.HasPrefix(w, v) }) {
			return true
		}
	}
	return false
}

// wishWords follow "if you" in a condition on the reader's wish ("if you
// want", "if you prefer", "if you would rather").
var wishWords = lazywords.Lookup(`want wish prefer like rather`)

// offers marks the tokens of statement s that offer a choice instead of
// making it: the clause that opens with "alternatively" or "optionally"
// (or the one after it, when a comma follows the word), and the clause of
// a condition on the reader's wish ("if you prefer") with the clause it
// governs: one that says what could be done ("…, X could do it") or asks
// it done ("…, switch to X").
//
// An offer's scope ends where a change made is reported: a clause after
// a wish that says a change in the past or with "now" ("if you want
// faster builds, good news: we moved to Y") reports it.
//
// An "Option N:" label is no offer by itself: the same label heads the
// option a plan picked ("Option 2 (chosen): …", "went with Option B") and
// the ones it did not, and only the text around it tells which.
func (p *parser) offers(s statement) {
	if s.n == 0 {
		return
	}
	first, end := s.first, s.first+s.n
	if w := p.toks[first].s; offerWords().Has(w) {
		last := p.clauseEnd(first, end)
		if last == first && last+1 < end {
			last = p.clauseEnd(last+1, end)
		}
		p.markOffered(first, last)
	}
	for k := first; k < end; k++ {
		if planWords().Has(p.toks[k].s) && p.planned(k, end) || k+2 < end && p.canChange(k, end) {
			// "let me plan the move from X to Y", "a plan to shift to
			// Y", "I can modify the client to use X instead", "we could
			// switch to Y": a change planned, proposed or offered is not
			// made.
			p.markOffered(k, p.clauseEnd(k, end))
		}
	}
	for k := first; k+2 < end; k++ {
		if p.toks[k].s != "if" || !p.wish(k+1, end) {
			continue
		}
		start := k
		for start > first && !p.clauseBreak(start-1) {
			start--
		}
		last := p.clauseEnd(k, end)
		p.markOffered(start, last)
		if last+1 < end {
			next := p.clauseEnd(last+1, end)
			if slices.ContainsFunc(p.toks[last+1:next+1], func(t token) bool { return modals().Has(t.s) }) ||
				!p.subjectAt(last+1) && !p.made(last+1, next) {
				p.markOffered(last+1, next)
			}
		}
	}
}

// canChange reports "I" or "we" at token k with "can" or "could" and a
// verb of change after it ("I can modify", "we could also move"): the
// speaker offers the change. A verb that reports ("I can confirm it moved")
// is no such verb, and "can now", "could finally" say what has become
// possible ("since the upgrade we can now run the tests with vitest").
func (p *parser) canChange(k, end int) bool {
	if w := p.toks[k].s; w != "i" && w != "we" || p.toks[k+1].s != "can" && p.toks[k+1].s != "could" ||
		achieved().Has(p.toks[k+2].s) {
		return false
	}
	for j := k + 2; j < end && j <= k+3 && !p.clauseBreak(j-1); j++ {
		w := p.toks[j].s
		if changeNew().Has(w) || cueWords().Has(w) || updateWords().Has(w) || offerVerbs().Has(w) ||
			slices.ContainsFunc(cueVerbs, func(v string) bool { return strings.HasPrefix(w, v) }) {
			return true
		}
	}
	return false
}

// offerVerbs are verbs of change, in the form a modal takes, that no other
// change table holds ("I can modify the client to …").
var offerVerbs = lazywords.Lookup(`modify rewrite convert`)

// achieved are the words after "can" or "could" that make it say what has
// become possible, not what is offered.
var achieved = lazywords.Lookup(`now finally already`)

// examples marks the values listed as examples as offered ("tools like
// X, Y and Z", "a store such as X"): a value named as an instance of a kind
// is no choice, whatever else the statement says ("instead, it shows tools
// like X"). It reads the values found, so it runs after find.
func (p *parser) examples() {
	for k := range p.toks {
		n := p.example(k)
		if n == 0 || k+n >= len(p.toks) {
			continue
		}
		// The list is in the statement its first word is in: the
		// tokenizer ends a statement at the period of "e.g.".
		s := p.sents[p.toks[k+n].sent]
		if last := p.listEnd(k+n, s.first+s.n); last >= k+n {
			p.markOffered(k+n, last)
		}
	}
}

// example returns the length of the words at token k that introduce
// examples ("such as", "e.g.", "for example", "including", a plural noun's
// "like"), 0 if there are none. "For instance, we moved …" opens a
// statement: a marker a comma follows introduces no list.
func (p *parser) example(k int) int {
	w, next := p.toks[k].s, ""
	if k+1 < len(p.toks) && p.toks[k+1].sent == p.toks[k].sent {
		next = p.toks[k+1].s
	}
	n := 0
	switch {
	case w == "such" && next == "as", w == "for" && (next == "example" || next == "instance"):
		n = 2
	case w == "e.g" || w == "eg" || w == "including":
		n = 1
	case w == "like" && k > 0 && p.toks[k-1].sent == p.toks[k].sent:
		// "tools like X", "managers, like X"; not "looks like X" or "we'd
		// like X": only a plural noun's instances are examples.
		before := p.toks[k-1].s
		if len(before) > 3 && strings.HasSuffix(before, "s") && !strings.HasSuffix(before, "ss") && !likeVerbs().Has(before) && (p.owner[k-1] == 0 || p.ms[p.owner[k-1]-1].weak) {
			// A plain word read as a value where it sets nothing ("with
			// tools like X") is still the noun the examples are of.
			n = 1
		}
	}
	if n == 0 || p.clauseBreak(k+n-1) && !p.opensAside(k+n-1) {
		return 0
	}
	return n
}

// likeVerbs take "like" as a comparison, not as "for instance".
var likeVerbs = lazywords.Lookup(`looks seems sounds feels works acts behaves reads`)

// listEnd returns the last token of the list of examples that starts at
// token k: its values, joined by "and" or "or", each with the aside in
// parentheses it may carry ("X (for the scripts), Y and Z"). The list ends
// at the first other word: "including billing, to Y" lists no value, and Y
// is what the statement says.
func (p *parser) listEnd(k, end int) int {
	last := k - 1
	for j := k; j < end; j++ {
		switch {
		case j > k && p.opensAside(j-1):
			j = p.asideEnd(j, end)
		case p.owner[j] != 0 || j > k && (p.toks[j].s == "and" || p.toks[j].s == "or"):
		default:
			return last
		}
		last = j
	}
	return last
}

// opensAside reports a "(" between token k and the next.
func (p *parser) opensAside(k int) bool {
	return k+1 < len(p.toks) && strings.Contains(p.text[p.toks[k].end:p.toks[k+1].start], "(")
}

// asideEnd returns the last token of the parenthesis that token k opens,
// or the statement's last token.
func (p *parser) asideEnd(k, end int) int {
	for j := k; j+1 < end; j++ {
		if strings.Contains(p.text[p.toks[j].end:p.toks[j+1].start], ")") {
			return j
		}
	}
	return end - 1
}

// made reports whether tokens first..last report a change made: a past
// change word ("moved", "we've migrated") or a "now" that marks a change
// after a subject ("the exports now run on X"), with no modal ("could be
// moved" is offered).
func (p *parser) made(first, last int) bool {
	if slices.ContainsFunc(p.toks[first:last+1], func(t token) bool { return modals().Has(t.s) }) {
		return false
	}
	for k := first; k <= last; k++ {
		if w := p.toks[k].s; doneWords().Has(w) || w == "now" && k > first && p.subjectAt(first) && p.nowMarks(k) {
			return true
		}
	}
	return false
}

// subjectAt reports whether the clause at token k opens with a subject (a
// pronoun, a determiner, a value or a capitalised name) rather than a verb
// that asks something done ("switch the queue to X").
func (p *parser) subjectAt(k int) bool {
	t := p.toks[k]
	if p.owner[k] != 0 || determiners().Has(t.s) || pronouns().Has(t.s) {
		return true
	}
	return upper(p.text[t.start])
}

// pronouns open a clause as its subject.
var pronouns = lazywords.Lookup(`i you we they he she it there we've we're they've they're i've it's there's`)

// wish reports a condition on the reader's wish from token k on: "you
// want", "you'd rather", "you would prefer".
func (p *parser) wish(k, end int) bool {
	switch w := p.toks[k].s; {
	case (w == "you'd" || w == "you’d") && k+1 < end:
		return wishWords().Has(p.toks[k+1].s)
	case w != "you" || k+1 >= end:
		return false
	case p.toks[k+1].s == "would" && k+2 < end:
		return wishWords().Has(p.toks[k+2].s)
	}
	return wishWords().Has(p.toks[k+1].s)
}

// clauseEnd returns the last token of the clause token k is in, before end.
func (p *parser) clauseEnd(k, end int) int {
	for k+1 < end && !p.clauseBreak(k) {
		k++
	}
	return k
}

func (p *parser) markOffered(first, last int) {
	for k := first; k <= last; k++ {
		p.offered[k] = true
	}
}

// clauseBreak reports a comma, colon, semicolon, dash, parenthesis or ellipsis between
// token k and the next: a marker does not reach across it ("Lerna got
// dropped, Changesets handles it now" does not drop Changesets; "noisy on the
// old modules — ruff output" does not make ruff the old linter).
func (p *parser) clauseBreak(k int) bool {
	if k < 0 || k+1 >= len(p.toks) {
		return false
	}
	return strings.ContainsAny(p.text[p.toks[k].end:p.toks[k+1].start], ",:;()—–…")
}

// elided reports an ellipsis between token k and the next: an excerpt cut
// text out there ("## Crate Ledger … Formatter: Plenk"), so
// the words on either side were never one phrase, whatever joins them.
func (p *parser) elided(k int) bool {
	return k >= 0 && k+1 < len(p.toks) && strings.Contains(p.text[p.toks[k].end:p.toks[k+1].start], "…")
}

// toAfter reports whether "to", "into" or "onto" follows mention m in its
// statement: "moved from X to Y".
func (p *parser) toAfter(m *mention) bool {
	for k := m.last + 1; k < len(p.toks) && p.toks[k].sent == p.toks[m.last].sent; k++ {
		if w := p.toks[k].s; w == "to" || w == "into" || w == "onto" {
			return true
		}
	}
	return false
}

// fromInside reports a version that its product reaches over "from"
// ("Next.js from 16.0.3") with a "to" later in a statement that says a
// change, or after a verb of change that takes the product ("I've
// updated Next.js from 16.0.3 to 16.0.7": the verb marked the version
// new): the value is the one left. Without either the two are a range
// ("supports Python from 3.9 to 3.12"). Not when the first value after
// the "to" fills another role ("moved Next.js from 16 to Vercel" leaves
// no version).
func (p *parser) fromInside(mi int) bool {
	m := p.ms[mi]
	if !strings.HasPrefix(m.role, "version:") || m.last-1 <= m.first || p.toks[m.last-1].s != "from" {
		return false
	}
	if k := m.first - 1; !p.cue[m.sent] && !(k >= 0 && p.toks[k].sent == m.sent && versionVerb(p.toks[k].s)) {
		return false
	}
	to := false
	for k := m.last + 1; k < len(p.toks) && p.toks[k].sent == m.sent; k++ {
		switch {
		case p.toks[k].s == "to":
			to = true
		case to && p.owner[k] != 0:
			return p.ms[p.owner[k]-1].role == m.role
		}
	}
	return to
}

// replaceBefore reports whether a "replace" word comes shortly before token k.
func (p *parser) replaceBefore(k int) bool {
	for j := k - 1; j >= 0 && j >= k-6 && p.toks[j].sent == p.toks[k].sent; j-- {
		if strings.HasPrefix(p.toks[j].s, "replac") || strings.HasPrefix(p.toks[j].s, "swap") {
			return true
		}
	}
	return false
}

// claims groups the mentions by role and turns each group into claims: with
// two values and one marked as new or old, the new one replaces the old.
func (p *parser) claims() []Claim {
	var out []Claim
	done := make([]bool, len(p.ms))
	for i := range p.ms {
		if done[i] {
			continue
		}
		role := p.ms[i].role
		type value struct {
			v                 string
			old, new, neg     bool
			removed           bool
			moved             bool
			weak              bool
			setting           bool
			tally             bool
			failed, again     bool // old by weak wording only; named plainly in a later statement
			failedSent        int
			sents             []int
			start, end, first int
		}
		var vals []*value
		// A group is the role's mentions in adjacent statements: a change
		// is said in one sentence or the next ("We dropped X. Jobs go to Y
		// now."), and values far apart in a long text are unrelated.
		firstSent, lastSent := p.ms[i].sent, p.ms[i].sent
		for j := i; j < len(p.ms); j++ {
			m := p.ms[j]
			if m.role != role || done[j] {
				continue
			}
			if m.sent > lastSent+1 {
				break
			}
			lastSent = max(lastSent, m.sent)
			done[j] = true
			var cur *value
			for _, v := range vals {
				if v.v == m.value {
					cur = v
				}
			}
			if cur == nil {
				cur = &value{v: m.value, first: m.first, weak: true, tally: true}
				vals = append(vals, cur)
			}
			cur.again = cur.again || cur.failed && !m.old && !m.new && !m.weak && m.sent > cur.failedSent && !p.cue[m.sent]
			if !cur.failed && m.old && !m.neg {
				cur.failed, cur.failedSent = true, m.sent
			}
			cur.old = cur.old || m.old
			cur.new = cur.new || m.new
			cur.moved = cur.moved || m.moved
			cur.neg = cur.neg || m.neg
			cur.removed = cur.removed || m.removed
			cur.weak = cur.weak && m.weak
			cur.tally = cur.tally && m.tally
			cur.setting = cur.setting || p.settingAt(m)
			if !slices.Contains(cur.sents, m.sent) {
				cur.sents = append(cur.sents, m.sent)
			}
		}
		mk := func(v *value) Claim {
			c := Claim{Role: role, Value: v.v, Weak: v.weak, Setting: v.setting, moved: v.moved, tally: v.tally, Start: p.sents[v.sents[0]].start, End: p.sents[v.sents[0]].end}
			for _, s := range v.sents {
				c.Start = min(c.Start, p.sents[s].start)
				c.End = max(c.End, p.sents[s].end)
				c.Changed = c.Changed || p.cue[s]
				c.Except = c.Except || p.except[s]
				c.Scope = p.scope(s, c.Scope)
			}
			return c
		}
		if len(vals) == 1 {
			c := mk(vals[0])
			c.Negated = vals[0].neg && !vals[0].new
			c.Removed = c.Negated && vals[0].removed
			c.Changed = c.Changed || c.Negated
			out = append(out, c)
			continue
		}
		var olds, news, plain, weak []*value
		for _, v := range vals {
			if v.again && !v.neg && !v.new {
				// "`kelbo sync` failed; fixed by running it with --force,
				// after which kelbo sync passed": a value said to fail and
				// then named again as used, in a later statement that
				// says no change, is fixed, not replaced.
				v.old = false
			}
			switch {
			case v.weak:
				weak = append(weak, v) // sets nothing, replaces nothing, is replaced by nothing
			case v.new:
				news = append(news, v)
			case v.old:
				olds = append(olds, v)
			default:
				plain = append(plain, v)
			}
		}
		switch {
		case len(news) == 0 && len(olds) > 0:
			news, plain = plain, nil
		case len(olds) == 0 && len(news) > 0 && !namedRoles[role] && slices.Contains(p.cue[firstSent:lastSent+1], true):
			// "Let's go with pnpm. npm takes a minute per install":
			// with change wording, the other value is the old one. Not for
			// paths and names: a text names many of them. Nor a setting's
			// name beside a value that is none ("Uploads: Pendrel from now
			// on. Uploads: `ZEPH_TOKEN` stays set"): the name of what is
			// set is no rival value.
			settings := slices.ContainsFunc(news, func(v *value) bool { return v.setting })
			var kept []*value
			for _, v := range plain {
				if v.setting && !settings {
					kept = append(kept, v)
				} else {
					olds = append(olds, v)
				}
			}
			plain = kept
		}
		// A change is said in one statement: a new value replaces the old
		// one named before it there ("`a` → `b` and `c` → `d`", "- `a` →
		// `b`" in a list of such lines), else the first of the statement,
		// else the first of all.
		bySent := map[int][]*value{}
		for _, o := range olds {
			for _, s := range o.sents {
				bySent[s] = append(bySent[s], o)
			}
		}
		// An old value replaced by a new one named in its own statement
		// is replaced by that one: a new value of the next statement is
		// another thing ("use `a` instead of `b`. Flutter uses `c`.").
		pairedNear := map[*value]bool{}
		for _, v := range news {
			for _, s := range v.sents {
				for _, o := range bySent[s] {
					pairedNear[o] = true
				}
			}
		}
		used := map[*value]bool{}
		for _, v := range news {
			c := mk(v)
			if len(olds) > 0 {
				o, near := olds[0], false
				for _, s := range v.sents {
					if xs := bySent[s]; len(xs) > 0 {
						o, near = xs[0], true
						for _, x := range xs {
							if x.first < v.first && (o.first > v.first || x.first > o.first) {
								o = x // the nearest before it
							}
						}
						break
					}
				}
				// Unless its own statement says a change anew: "Replace
				// `jest` with `vitest`. Actually, use `bun test` instead."
				if !near && pairedNear[o] && !slices.ContainsFunc(v.sents, func(s int) bool { return p.cue[s] }) {
					out = append(out, c)
					continue
				}
				used[o] = true
				c.Replaces = o.v
				c.Changed = true
				spans := olds
				if near {
					spans = []*value{o}
				}
				for _, o := range spans {
					c.Start = min(c.Start, p.sents[o.sents[0]].start)
					c.End = max(c.End, p.sents[o.sents[0]].end)
				}
			}
			out = append(out, c)
		}
		for _, v := range olds {
			if used[v] {
				continue
			}
			c := mk(v)
			c.Negated, c.Changed, c.Removed = true, true, v.removed
			out = append(out, c)
		}
		for _, v := range append(plain, weak...) {
			out = append(out, mk(v))
		}
	}
	return out
}

// scopeStop are words that say nothing about what a decision is about.
var scopeStop = lazywords.Lookup(`a an the and or but of to in on at for from with by as is are was were be been being it its this
	that these those we our us you your they their i me my he she them there here so if then than too very just also
	use uses used using go goes going went run runs running ran set sets make makes made keep keeps kept get gets got
	do does did done have has had will would should can could may might must now new old all any some every each no not
	never many much few several more most less only one two three first last next instead rather switch switched
	switching move moved moving
	replace replaced replaces replacing migrate migrated drop dropped stop stopped actually scratch from now on anymore
	longer please let let's lets ok okay sure good sounds yes want need like add added change changed changes up out
	over off into onto via per about after before since because while when where which who what how why time today
	week sprint here heads update quick policy point pointing instead default deprecated revert reverted cut bump bumped
	upgrade upgraded raise raised lower lowered rename renamed store stored stores live lives living written
	read reads built build builds deployed deploy deploys sent send sends handled handle handles managed manage manages
	called call calls work works worked happen happens done things thing stuff`)

// roleWords are the words that name a role itself; two statements about the
// same role always share them, so they do not show a shared scope.
var roleWords = lazywords.Lookup(`port ports timeout timeouts timing timed region regions version versions runtime runner runners
	retries retry attempts replicas workers path paths folder directory dir file files bucket branch topic queue image
	tool framework library lib client server service services database db cache`)

// scope appends the content-word stems of statement s to dst (sorted, unique).
func (p *parser) scope(s int, dst []string) []string {
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
			for part := range strings.FieldsFuncSeq(w, func(r rune) bool { return r == '_' || r == '-' || r == '/' || r == '.' }) {
				if len(part) >= 3 && !scopeStop().Has(part) && !roleWords().Has(part) {
					ws = append(ws, stem(part, t.hangul))
				}
			}
		}
		slices.Sort(ws)
		p.scopes[s] = slices.Compact(ws)
	}
	dst = slices.Grow(dst, len(p.scopes[s])) // one allocation, not one per doubling
	for _, w := range p.scopes[s] {
		if !slices.Contains(dst, w) {
			dst = append(dst, w)
		}
	}
	slices.Sort(dst)
	return dst
}

// settingAt reports a mention written as a setting's name: an identifier of
// capitals joined by underscores ("USE_CACHE", "KELVO_API_KEY"), the shape of
// an environment variable or config key. Values are lower-cased by then, so
// it reads the text as written: "pg_dump" and "round_robin" are values.
func (p *parser) settingAt(m mention) bool {
	w := p.text[p.toks[m.first].start:p.toks[m.last].end]
	if k := strings.IndexByte(w, '='); k > 0 {
		w = w[:k] // "ENABLE_TRACE=true": the name set
	}
	under, upper := false, false
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c == '_':
			under = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z', c >= 0x80:
			return false
		case c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return under && upper
}
