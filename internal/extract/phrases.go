package extract

import (
	"github.com/claude-memory-layer/claude-memory-layer/internal/korean"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazywords"
)

// The trigger phrases of each entry type, lower case, in priority order
// within each list. A phrase that starts or ends with an ASCII letter or digit
// only matches at a word boundary on that side; Korean phrases match
// anywhere, since Korean attaches particles and endings to the word.

// where restricts the position of a phrase in the sentence.
type where uint8

const (
	anywhere where = iota
	atStart        // at the start of the sentence, after openers such as "yes," or "also"
	atClause       // at the start of a clause: the sentence start, or after , ; : — "and" "but" "please" "so"
)

// speaker restricts who must have said a phrase for it to count.
type speaker uint8

const (
	anyone speaker = iota
	userOnly
	assistantOnly
)

// kind refines a trigger's type: it chooses how the subject and title are
// derived, and how lessons are paired.
type kind uint8

const (
	plain     kind = iota
	choice         // a decision to use something: the subject is what it is used for
	change         // a decision stated as a change made: "pinned X to", "changed X to"
	accept         // the user accepting a concrete value: "50 MB is fine"
	stack          // a fact about the stack: "we're on Postgres 16"
	location       // where something lives
	config         // how something is configured
	created        // the assistant created something at a path
	cause          // a lesson's cause
	fix            // a lesson's fix
	weakCause      // "because" and the like: a cause only near a failure
	remember       // an explicit request to remember
	veto           // "let's not": a decision not to do an unnamed thing
	contrast       // a one-off imperative with a limit: "Fix the test, not the middleware."
)

type phrase struct {
	s  string
	at where
	by speaker
	w  float64
	k  kind
}

// rememberPhrases are explicit requests to remember; the entry's type then
// comes from the rest of the sentence, falling back to fact. They are how
// a user marks a standing rule ("from now on", "for this project"), the
// same words any instruction file uses, not any one question's.
var rememberPhrases = []phrase{
	{s: "remember that", w: 2}, {s: "remember:", w: 2}, {s: "please remember", w: 2},
	{s: "note that", at: atStart, by: userOnly, w: 2}, {s: "note:", at: atStart, by: userOnly, w: 2},
	{s: "keep in mind", w: 2}, {s: "for this project", w: 2}, {s: "in this project", at: atStart, w: 1.5},
	{s: "from now on", w: 2}, {s: "going forward", w: 2}, {s: "for future reference", w: 2},
	{s: "for the record", w: 1.5}, {s: "fyi", at: atStart, by: userOnly, w: 1.5}, {s: "important:", w: 2},
	{s: "기억해", w: 2}, {s: "기억하세요", w: 2}, {s: "기억해 줘", w: 2}, {s: "앞으로는", w: 2},
	{s: "앞으로", at: atStart, w: 1.5}, {s: "메모해", w: 2}, {s: "잊지 마", w: 2}, {s: "참고로", at: atStart, w: 1.5},
	{s: "이 프로젝트에서는", w: 1.5},
}

// ruleMarkers set a standing rule: what they introduce is a constraint
// unless it is a decision ("from now on, secrets only come from Vault").
var ruleMarkers = []phrase{{s: "from now on"}, {s: "going forward"}, {s: "from here on"}, {s: "앞으로는"}, {s: "앞으로"}}

// foundMarkers open a sentence announcing that the cause was found; what
// follows explains it.
var foundMarkers = []string{"found it", "found the bug", "found the problem", "found the issue", "found the cause",
	"got it, the problem", "see the issue", "see the problem", "see the bug", "there's the issue", "there's the problem",
	"there's the bug", "here's the issue", "here's the problem", "원인을 찾았습니다", "찾았습니다", "찾았어요"}

// anaphors in a user's decision point at the assistant's last proposal:
// "let's go with that", "그걸로 통일합시다".
var anaphors = []phrase{{s: "that"}, {s: "it"}, {s: "this"}, {s: "your suggestion"}, {s: "your proposal"},
	{s: "그걸로"}, {s: "그거로"}, {s: "그것으로"}, {s: "이걸로"}, {s: "그렇게"}}

// proposalOpeners and proposalEndings frame a suggestion; what they frame is
// the proposal's content.
var (
	proposalOpeners = []string{"should we", "shall we", "how about", "what about", "do you want me to", "would you like me to",
		"i suggest", "i'd suggest", "i'd recommend", "i recommend", "we could", "i could", "maybe", "one option is to", "one option is"}
	proposalEndings = []string{"하는 건 어떨까요", "하는 게 어떨까요", "는 건 어떨까요", "는 게 어떨까요", "어떨까요", "할까요", "을까요", "를까요", "까요"}
)

// causeVerbs after a cause noun (claim.CauseNoun) make "the real issue is
// that", "the underlying problem was" a lesson's cause, with any one
// adjective in between.
var causeVerbs = []string{" is", " was", ":"}

// causePhrases state why something broke, fixPhrases how it was fixed.
// They are English's ordinary ways of stating a cause or a fix ("fails
// because", "fixed by"), as any debugging write-up words them; none is a
// question's or an answer's wording.
var causePhrases = []phrase{
	{s: "root cause", w: 3, k: cause}, {s: "the cause was", w: 3, k: cause}, {s: "the cause is", w: 3, k: cause},
	{s: "caused by", w: 2.5, k: cause}, {s: "the problem was", w: 3, k: cause}, {s: "the problem is that", w: 2.5, k: cause},
	{s: "the issue was", w: 3, k: cause}, {s: "the issue is that", w: 2.5, k: cause}, {s: "the bug was", w: 3, k: cause},
	{s: "the bug is that", w: 2.5, k: cause}, {s: "the culprit", w: 3, k: cause}, {s: "turned out", w: 2, k: cause},
	{s: "turns out", w: 2, k: cause}, {s: "failed because", w: 3, k: cause}, {s: "fails because", w: 3, k: cause},
	{s: "failing because", w: 3, k: cause}, {s: "broke because", w: 3, k: cause}, {s: "breaks because", w: 3, k: cause},
	{s: "crashed because", w: 3, k: cause}, {s: "crashes because", w: 3, k: cause}, {s: "hangs because", w: 3, k: cause},
	{s: "that's why", w: 2, k: cause}, {s: "which is why", w: 2, k: cause}, {s: "the reason was", w: 2.5, k: cause},
	{s: "the reason is", w: 2, k: cause}, {s: "was silently", w: 2.5, k: cause}, {s: "were silently", w: 2.5, k: cause},
	{s: "silently dropped", w: 2.5, k: cause}, {s: "silently ignored", w: 2.5, k: cause},
	{s: "원인은", w: 3, k: cause}, {s: "원인이", w: 2.5, k: cause}, {s: "원인:", w: 3, k: cause},
	{s: "실패한 이유", w: 3, k: cause}, {s: "실패 원인", w: 3, k: cause}, {s: "이유는", w: 2, k: cause},
	{s: "아서 실패", w: 2.5, k: cause}, {s: "어서 실패", w: 2.5, k: cause}, {s: "해서 실패", w: 2.5, k: cause},
	{s: "여서 실패", w: 2.5, k: cause}, {s: "라서 실패", w: 2.5, k: cause}, {s: "때문에 실패", w: 3, k: cause},
	{s: "때문에 에러", w: 3, k: cause}, {s: "때문에 오류", w: 3, k: cause}, {s: "서였습니다", w: 2.5, k: cause},
	{s: "서였어요", w: 2.5, k: cause}, {s: "때문이었", w: 2.5, k: cause}, {s: "원인을 찾았", w: 2.5, k: cause},
	{s: "because", w: 1.5, k: weakCause}, {s: "due to", w: 1.5, k: weakCause}, {s: "때문", w: 1.5, k: weakCause},
}

var fixPhrases = []phrase{
	{s: "fixed it by", w: 2.5, k: fix}, {s: "fixed this by", w: 2.5, k: fix}, {s: "fixed by", w: 2.5, k: fix},
	{s: "fix was to", w: 2.5, k: fix}, {s: "the fix was", w: 2.5, k: fix}, {s: "the fix is", w: 2.5, k: fix},
	{s: "i fixed", w: 2, k: fix}, {s: "we fixed", w: 2, k: fix}, {s: "resolved by", w: 2.5, k: fix},
	{s: "resolved it by", w: 2.5, k: fix}, {s: "solved it by", w: 2.5, k: fix}, {s: "solved by", w: 2.5, k: fix},
	{s: "worked around", w: 2, k: fix}, {s: "the workaround is", w: 2, k: fix}, {s: "workaround:", w: 2, k: fix},
	{s: "해서 해결", w: 2.5, k: fix}, {s: "하여 해결", w: 2.5, k: fix}, {s: "으로 해결", w: 2.5, k: fix},
	{s: "로 해결", w: 2.5, k: fix}, {s: "해결했", w: 2, k: fix}, {s: "해결됐", w: 2, k: fix},
	{s: "해결되었", w: 2, k: fix}, {s: "고쳤", w: 2, k: fix},
}

// fixedMarkers are whole sentences announcing that the next one is the fix.
var fixedMarkers = []string{"fixed", "fixed it", "fixed that", "that fixed it", "fixed now", "found and fixed",
	"해결했습니다", "고쳤습니다", "수정했습니다", "해결했어요", "고쳤어요"}

// failureWords make "because" a lesson's cause.
var failureWords = []phrase{
	{s: "fail"}, {s: "failed"}, {s: "fails"}, {s: "failing"}, {s: "failure"}, {s: "error"}, {s: "errors"},
	{s: "bug"}, {s: "broke"}, {s: "broken"}, {s: "breaks"}, {s: "crash"}, {s: "crashed"}, {s: "crashes"},
	{s: "hang"}, {s: "hangs"}, {s: "hung"}, {s: "timeout"}, {s: "timed out"}, {s: "401"}, {s: "403"}, {s: "404"},
	{s: "500"}, {s: "exception"}, {s: "panic"}, {s: "wrong"}, {s: "missing"}, {s: "dropped"}, {s: "flaky"},
	{s: "regression"}, {s: "leak"}, {s: "race"}, {s: "deadlock"}, {s: "undefined"}, {s: "nil pointer"},
	{s: "실패"}, {s: "에러"}, {s: "오류"}, {s: "버그"}, {s: "문제"}, {s: "깨지"}, {s: "안 되"}, {s: "멈추"},
}

// decisionPhrases state a choice; negDecisionPhrases a choice not to use
// something, which is kept as a constraint.
var decisionPhrases = []phrase{
	{s: "decision:", w: 3}, {s: "decided to", w: 2.5}, {s: "we decided", w: 2.5}, {s: "i decided", w: 2.5},
	{s: "decided on", w: 2.5, k: choice}, {s: "decided that", w: 2.5}, {s: "the decision is", w: 2.5},
	{s: "we chose", w: 2.5, k: choice}, {s: "i chose", w: 2, k: choice}, {s: "we picked", w: 2, k: choice},
	{s: "opted for", w: 2, k: choice}, {s: "opted to", w: 2}, {s: "we'll use", w: 2.5, k: choice},
	{s: "we will use", w: 2.5, k: choice}, {s: "we're going to use", w: 2.5, k: choice},
	{s: "we are going to use", w: 2.5, k: choice}, {s: "we'll go with", w: 2.5, k: choice},
	{s: "we will go with", w: 2.5, k: choice}, {s: "we're going with", w: 2.5, k: choice},
	{s: "let's go with", w: 2.5, k: choice}, {s: "let's use", w: 2.5, k: choice}, {s: "let us use", w: 2.5, k: choice},
	{s: "let's switch", w: 2.5, k: choice}, {s: "let's move to", w: 2, k: choice}, {s: "let's migrate", w: 2.5, k: choice},
	{s: "let's stick with", w: 2.5, k: choice}, {s: "let's keep", w: 2, k: choice}, {s: "let's adopt", w: 2.5, k: choice},
	{s: "we'll switch", w: 2.5, k: choice}, {s: "we will switch", w: 2.5, k: choice}, {s: "we're moving to", w: 2.5, k: choice},
	{s: "we are moving to", w: 2.5, k: choice}, {s: "we moved to", w: 2.5, k: choice}, {s: "we're switching", w: 2.5, k: choice},
	{s: "we'll stick with", w: 2, k: choice}, {s: "go ahead with", w: 2, k: choice},
	{s: "standardize on", w: 2, k: choice}, {s: "standardise on", w: 2, k: choice}, {s: "settled on", w: 2, k: choice},
	{s: "standardizing on", w: 2, k: choice}, {s: "standardising on", w: 2, k: choice}, {s: "standardized on", w: 2, k: choice},
	{s: "standardised on", w: 2, k: choice}, {s: "settling on", w: 2, k: choice}, {s: "we're adopting", w: 2, k: choice},
	{s: "we adopted", w: 2, k: choice}, {s: "we're sticking with", w: 2, k: choice}, {s: "we'll be using", w: 2, k: choice},
	{s: "we are switching", w: 2.5, k: choice}, {s: "we switched", w: 2.5, k: choice}, {s: "we migrated", w: 2, k: choice},
	{s: "switch to", w: 2, k: choice}, {s: "switched to", w: 2, k: choice}, {s: "switching to", w: 2, k: choice},
	{s: "switch from", w: 2, k: choice}, {s: "switched from", w: 2, k: choice}, {s: "migrate to", w: 2, k: choice},
	{s: "migrated to", w: 2, k: choice}, {s: "migrating to", w: 2, k: choice}, {s: "in favor of", w: 2, k: choice},
	{s: "in favour of", w: 2, k: choice},
	{s: "replaced", w: 1.5, k: change}, {s: "replace", w: 1.5, k: change}, {s: "replacing", w: 1.5, k: change},
	{s: "pinned", w: 1.5, k: change}, {s: "changed", at: atStart, w: 1.5, k: change}, {s: "moved to", w: 1.5, k: choice},
	{s: "instead of", w: 1.5}, {s: "rather than", w: 1.5},
	{s: "is fine", by: userOnly, w: 1.5, k: accept}, {s: "works for me", by: userOnly, w: 1.5, k: accept},
	{s: "make it", at: atClause, by: userOnly, w: 1.5, k: accept}, {s: "set it to", at: atClause, by: userOnly, w: 1.5, k: accept},
	{s: "bump it to", at: atClause, by: userOnly, w: 1.5, k: accept}, {s: "change it to", at: atClause, by: userOnly, w: 1.5, k: accept},
	{s: "raise it to", at: atClause, by: userOnly, w: 1.5, k: accept}, {s: "lower it to", at: atClause, by: userOnly, w: 1.5, k: accept},
	{s: "로 결정", w: 3, k: choice}, {s: "결정했", w: 2.5}, {s: "결정할게", w: 2.5}, {s: "결정합니다", w: 2.5},
	{s: "쓰기로", w: 2.5, k: choice}, {s: "사용하기로", w: 2.5, k: choice}, {s: "기로 했", w: 2}, {s: "기로 해", w: 2},
	{s: "로 바꾸", w: 2, k: choice}, {s: "로 바꿨", w: 2, k: choice}, {s: "로 바꿔", w: 2, k: choice},
	{s: "로 변경", w: 2, k: choice}, {s: "로 교체", w: 2, k: choice}, {s: "로 전환", w: 2, k: choice},
	{s: "로 이전", w: 2, k: choice}, {s: "로 가죠", w: 2, k: choice}, {s: "로 갑시다", w: 2, k: choice},
	{s: "로 하죠", w: 2, k: choice}, {s: "로 합시다", w: 2, k: choice}, {s: "로 할게요", w: 2, k: choice},
	{s: "로 해 주세요", by: userOnly, w: 1.5, k: choice}, {s: "로 해주세요", by: userOnly, w: 1.5, k: choice},
	{s: "를 쓰자", w: 2, k: choice}, {s: "을 쓰자", w: 2, k: choice}, {s: "를 쓰죠", w: 2, k: choice},
	{s: "을 쓰죠", w: 2, k: choice}, {s: "로 통일", w: 2.5, k: choice}, {s: "통일합시다", w: 2.5}, {s: "통일하죠", w: 2.5},
	{s: "통일하기로", w: 2.5}, {s: "통일할게", w: 2.5}, {s: "걸로 하죠", w: 2}, {s: "걸로 합시다", w: 2}, {s: "걸로 가죠", w: 2},
	{s: "걸로 할게요", w: 2}, {s: "그렇게 하죠", w: 2}, {s: "그렇게 합시다", w: 2}, {s: "그렇게 해 주세요", by: userOnly, w: 1.5},
	{s: "let's do that", by: userOnly, w: 2}, {s: "let's do it", by: userOnly, w: 2}, {s: "go with that", by: userOnly, w: 2},
	{s: "대신", w: 1.5},
}

var negDecisionPhrases = []phrase{
	{s: "we won't use", w: 2.5}, {s: "we will not use", w: 2.5}, {s: "let's not use", w: 2.5},
	{s: "don't use", w: 2.5}, {s: "do not use", w: 2.5}, {s: "stop using", w: 2.5}, {s: "no longer use", w: 2.5},
	{s: "let's not", w: 0, k: veto}, {s: "let's not do", w: 0, k: veto},
}

var preferencePhrases = []phrase{
	{s: "i prefer", w: 2.5}, {s: "i'd prefer", w: 2.5}, {s: "i would prefer", w: 2.5}, {s: "we prefer", w: 2.5},
	{s: "i'd rather", w: 2.5}, {s: "i would rather", w: 2.5}, {s: "we'd rather", w: 2.5}, {s: "my preference", w: 2.5},
	{s: "i don't like", w: 2}, {s: "i do not like", w: 2}, {s: "i dislike", w: 2}, {s: "i hate", w: 2},
	{s: "i don't want", w: 2}, {s: "i do not want", w: 2}, {s: "we don't want", w: 2},
	{s: "i like", by: userOnly, w: 1.5}, {s: "i love", by: userOnly, w: 1.5}, {s: "prefer", by: userOnly, w: 1.5},
	{s: "선호", w: 2.5}, {s: "싫어요", w: 1.5}, {s: "싫어합니다", w: 1.5}, {s: "원하지 않", w: 2}, {s: "원치 않", w: 2},
}

var constraintPhrases = []phrase{
	{s: "under no circumstances", w: 3}, {s: "must not", w: 2.5}, {s: "mustn't", w: 2.5},
	{s: "should never", w: 2.5}, {s: "should always", w: 2.5}, {s: "should only", w: 2.5},
	{s: "must", w: 2}, {s: "shouldn't", by: userOnly, w: 2}, {s: "should not", by: userOnly, w: 2},
	{s: "never", at: atClause, w: 2}, {s: "always", at: atClause, w: 2},
	{s: "don't", at: atClause, w: 2}, {s: "do not", at: atClause, w: 2}, {s: "make sure", at: atClause, w: 2},
	{s: "be sure to", at: atClause, w: 2}, {s: "avoid", at: atClause, w: 1.5}, {s: "keep", at: atClause, w: 1.5},
	{s: "only", at: atStart, w: 1.5},
	{s: "never", by: userOnly, w: 2}, {s: "always", by: userOnly, w: 2}, {s: "only ever", by: userOnly, w: 2},
	{s: "not allowed", by: userOnly, w: 2}, {s: "is forbidden", w: 2}, {s: "are forbidden", w: 2},
	{s: "remember to", w: 2}, {s: "at most", by: userOnly, w: 1.5}, {s: "no more than", by: userOnly, w: 1.5},
	{s: "check with me", w: 2}, {s: "ask me before", w: 2}, {s: "ask before", w: 2}, {s: "confirm with me", w: 2},
	{s: "without asking", w: 2}, {s: "we never", w: 2}, {s: "we always", w: 2}, {s: "we don't", by: userOnly, w: 1.5},
	{s: "we do not", by: userOnly, w: 1.5},
	{s: "절대", w: 2.5}, {s: "반드시", w: 2.5}, {s: "하지 마", w: 2.5}, {s: "지 마세요", w: 2.5}, {s: "지 마", w: 2},
	{s: "지 말", w: 2}, {s: "금지", w: 2.5}, {s: "항상", w: 2}, {s: "꼭 ", by: userOnly, w: 1.5},
	{s: "안 돼", w: 2}, {s: "안 됩니다", w: 2}, {s: "되면 안", w: 2}, {s: "말아 주세요", w: 2}, {s: "말아주세요", w: 2},
	{s: "으로만", by: userOnly, w: 1.5}, {s: "로만", by: userOnly, w: 1.5}, {s: "만 사용", by: userOnly, w: 1.5},
}

// notConstraint follows "always", "never", "don't" when they describe what
// happens rather than what to do: "it never worked", "don't worry".
var notConstraint = []string{"fail", "fails", "failed", "break", "breaks", "broke", "work", "works", "worked",
	"happen", "happens", "happened", "seem", "seems", "know", "worry", "forget", "mind", "think", "see", "return", "returns"}

var taskPhrases = []phrase{
	{s: "todo", w: 2.5}, {s: "fixme", w: 2}, {s: "still need", w: 2}, {s: "still needs", w: 2},
	{s: "you need to", w: 2}, {s: "we need to", w: 2}, {s: "you'll need to", w: 2}, {s: "you will need to", w: 2},
	{s: "we'll need to", w: 2}, {s: "we will need to", w: 2}, {s: "you have to", w: 1.5}, {s: "we have to", w: 1.5},
	{s: "backlog", w: 1.5}, {s: "need to", by: userOnly, w: 1.5},
	{s: "needs to", by: userOnly, w: 1.5}, {s: "next step", w: 2}, {s: "next steps", w: 2}, {s: "follow-up", w: 2},
	{s: "follow up on", w: 2}, {s: "followup", w: 2}, {s: "remaining work", w: 2}, {s: "left to do", w: 2},
	{s: "don't forget to", w: 2}, {s: "we should also", by: userOnly, w: 1.5}, {s: "action item", w: 2},
	{s: "blocked on", w: 2}, {s: "blocked by", by: userOnly, w: 2},
	{s: "남은 작업", w: 2.5}, {s: "다음 단계", w: 2}, {s: "할 일", w: 2}, {s: "아직 남아", w: 1.5},
	{s: "야 합니다", w: 2}, {s: "야 해요", w: 2}, {s: "야 됩니다", w: 2}, {s: "야 해", w: 1.5}, {s: "야 돼", w: 1.5},
	{s: "야 함", w: 1.5},
}

var factPhrases = []phrase{
	{s: "we're on", w: 2, k: stack}, {s: "we are on", w: 2, k: stack}, {s: "we're still on", w: 2, k: stack},
	{s: "we're using", w: 2, k: stack}, {s: "we are using", w: 2, k: stack}, {s: "we use", w: 2, k: stack},
	{s: "we run", w: 1.5, k: stack}, {s: "we're running", w: 1.5, k: stack}, {s: "we deploy to", w: 2, k: stack},
	{s: "we deploy on", w: 2, k: stack}, {s: "we host on", w: 2, k: stack}, {s: "we build with", w: 2, k: stack},
	{s: "we target", w: 1.5, k: stack}, {s: "is written in", w: 1.5, k: stack}, {s: "is built with", w: 1.5, k: stack},
	{s: "을 쓰고 있", w: 2, k: stack}, {s: "를 쓰고 있", w: 2, k: stack}, {s: "을 사용해요", w: 2, k: stack},
	{s: "를 사용해요", w: 2, k: stack}, {s: "을 사용합니다", w: 1.5, k: stack}, {s: "를 사용합니다", w: 1.5, k: stack},
	{s: "을 사용하고", w: 1.5, k: stack}, {s: "를 사용하고", w: 1.5, k: stack}, {s: "을 사용 중", w: 2, k: stack},
	{s: "를 사용 중", w: 2, k: stack}, {s: "을 씁니다", w: 1.5, k: stack}, {s: "를 씁니다", w: 1.5, k: stack},
	{s: "을 써요", w: 1.5, k: stack}, {s: "를 써요", w: 1.5, k: stack}, {s: "떠 있", w: 1.5, k: stack},
	{s: "돌아가고 있", w: 1.5, k: stack}, {s: "에서 운영", w: 1.5, k: stack}, {s: "로 운영", w: 1.5, k: stack},
	{s: "lives in", w: 2, k: location}, {s: "live in", w: 2, k: location}, {s: "lives under", w: 2, k: location},
	{s: "live under", w: 2, k: location}, {s: "lives at", w: 2, k: location}, {s: "is located", w: 2, k: location},
	{s: "are located", w: 2, k: location}, {s: "is stored in", w: 2, k: location}, {s: "are stored in", w: 2, k: location},
	{s: "is kept in", w: 2, k: location}, {s: "are kept in", w: 2, k: location}, {s: "can be found in", w: 2, k: location},
	{s: "is defined in", w: 1.5, k: location}, {s: "are defined in", w: 1.5, k: location},
	{s: "is configured in", w: 1.5, k: location}, {s: "are in `", w: 1.5, k: location}, {s: "is in `", w: 1.5, k: location},
	{s: "are under `", w: 1.5, k: location}, {s: "is under `", w: 1.5, k: location}, {s: "is at `", w: 1.5, k: location},
	{s: "are at `", w: 1.5, k: location},
	{s: "에 있어요", w: 2, k: location}, {s: "에 있습니다", w: 2, k: location}, {s: "에 있음", w: 2, k: location},
	{s: "에 있다", w: 2, k: location}, {s: "에 저장", w: 1.5, k: location}, {s: "에 위치", w: 2, k: location},
	{s: "에 들어 있", w: 1.5, k: location},
	{s: "is read from", w: 2, k: config}, {s: "are read from", w: 2, k: config}, {s: "comes from", w: 2, k: config},
	{s: "come from", w: 1.5, k: config}, {s: "is set via", w: 2, k: config}, {s: "is set in", w: 1.5, k: config},
	{s: "is configured via", w: 2, k: config}, {s: "defaults to", w: 1.5, k: config}, {s: "listens on", w: 2, k: config},
	{s: "runs on port", w: 2, k: config}, {s: "now runs", w: 1.5, k: config}, {s: "now uses", w: 1.5, k: config},
	{s: "에서 읽", w: 1.5, k: config},
}

// projectNouns and projectVerbs make "the app uses Prisma" a stack fact.
var (
	projectNouns = []string{"app", "project", "service", "api", "repo", "repository", "backend", "frontend",
		"codebase", "server", "site", "monorepo", "cli", "stack", "system", "product"}
	projectVerbs = []string{"uses", "runs on", "is on", "depends on", "is built on", "targets", "runs"}
	adverbs      = []string{"currently", "now", "still", "already", "mostly", "only", "also"}
)

// configWords make a sentence naming an environment variable a config fact:
// the words configuration documentation uses for one ("environment
// variable", "default is"), in English and Korean.
var configWords = []phrase{
	{s: "setting"}, {s: "(default"}, {s: "default is"}, {s: "env var"}, {s: "environment variable"},
	{s: "configured"}, {s: "variable"}, {s: "환경 변수"}, {s: "설정"},
}

// createVerbs, with a file path, make a statement where something lives.
var createVerbs = []phrase{
	{s: "added"}, {s: "created"}, {s: "wrote"}, {s: "put"}, {s: "moved"}, {s: "generated"}, {s: "add"},
	{s: "adding"}, {s: "create"}, {s: "creating"}, {s: "write"}, {s: "writing"},
	{s: "만들었"}, {s: "추가했"}, {s: "생성했"}, {s: "작성했"}, {s: "옮겼"}, {s: "두었"}, {s: "만들고"}, {s: "추가하고"},
	{s: "생성하고"}, {s: "작성하고"}, {s: "만들어"}, {s: "추가해"},
}

// referenceWords make a URL or ticket in an assistant message a reference;
// the locators (analyze.go) are among them.
var referenceWords = append([]phrase{
	{s: "see"}, {s: "docs"}, {s: "documentation"}, {s: "spec"}, {s: "guide"}, {s: "ticket"},
	{s: "tracked"}, {s: "reference"}, {s: "runbook"}, {s: "dashboard"}, {s: "wiki"}, {s: "upstream"},
	{s: "readme"}, {s: "참고"}, {s: "문서"},
}, locatorPhrases()...)

// requestOpeners ask for work on a link now; the link is the job, not a
// pointer to keep.
var requestOpeners = []string{"review", "look at", "take a look", "check", "as per", "address", "read", "open",
	"pls", "please", "@"}

// ticketPointers make a bare ticket number a reference: it is where the
// work is tracked, not a number in a status report.
var ticketPointers = []phrase{{s: "see"}, {s: "tracked"}, {s: "ticket"}, {s: "follow-up"}, {s: "참고"}}

// commitments put a sentence in the mood of a proposal or a promise of
// work to come: the modal or future auxiliaries of "we" and "I".
var commitments = []phrase{{s: "let's"}, {s: "let us"}, {s: "we'll"}, {s: "we will"}, {s: "we should"}, {s: "we need to"},
	{s: "we must"}, {s: "we can"}, {s: "we're going to"}, {s: "we are going to"}, {s: "i'll"}, {s: "i will"},
	{s: "i'm going to"}, {s: "i am going to"}, {s: "i should"}, {s: "i need to"}}

// choosers make "instead of" a choice: someone picks one thing over another.
var choosers = []phrase{{s: "we"}, {s: "let's"}, {s: "i want"}, {s: "i'd like"}, {s: "prefer"}, {s: "we'll"},
	{s: "we're"}, {s: "i'll"}}

// hedges make a sentence a possibility rather than a claim; modalHedges do
// so for everything but lessons ("so the client would wait").
var (
	hedges = []phrase{
		{s: "maybe"}, {s: "perhaps"}, {s: "probably"}, {s: "possibly"}, {s: "might"}, {s: "not sure"},
		{s: "i guess"}, {s: "i wonder"}, {s: "i suspect"}, {s: "at some point"}, {s: "someday"}, {s: "some day"},
		{s: "what if"}, {s: "alternatively"}, {s: "one option"}, {s: "an option"}, {s: "we can also"},
		{s: "in theory"}, {s: "thinking about"}, {s: "if we"}, {s: "would be nice"}, {s: "혹시"}, {s: "아마"},
		{s: "수도 있"}, {s: "지도 몰라"}, {s: "것 같아"}, {s: "것 같습니다"}, {s: "고민"}, {s: "방법도 있"},
		{s: "면 좋겠"}, {s: "할지도"}, {s: "could be"}, {s: "may be"},
	}
	modalHedges = []phrase{{s: "would"}, {s: "could"}, {s: "i'd"}, {s: "we'd"}, {s: "can we"}, {s: "수 있지만"}}

	// requests are not hedges: "I'd like you to use X" asks for X.
	requests = []string{"i'd like you to", "i would like you to", "i want you to", "please"}
)

// intents open an assistant sentence that announces what it is about to do.
var intents = []string{"i'll", "i will", "i'm going to", "i am going to", "let me", "let's see", "now i'll",
	"next i'll", "next, i'll", "first, i'll", "first i'll", "then i'll", "i'm now", "now let me", "going to",
	"i can", "i'm", "running", "looking", "checking", "reading"}

// questionOpeners start a question even without a question mark.
var questionOpeners = []string{"should we", "shall we", "can we", "could we", "do we", "can you", "could you",
	"would you", "do you", "is there", "are there", "how about", "what about"}

// openers are skipped before an atStart phrase.
var openers = []string{"yes", "yeah", "yep", "ok", "okay", "also", "and", "so", "but", "then", "please", "btw",
	"oh", "alright", "sure", "right", "great", "nice", "cool", "good", "perfect", "hmm", "well", "anyway",
	"by the way", "one more thing", "그리고", "또", "네", "먼저", "그럼", "아", "음"}

// clauseWords may precede an atClause phrase.
var clauseWords = []string{"and", "but", "please", "so", "then", "also", "just", "though", "and please", "but please"}

// imperativeVerbs open a one-off instruction; with a contrast ("not the
// middleware") it limits the session's work and is kept as a weak constraint.
var imperativeVerbs = []string{"fix", "change", "update", "edit", "touch", "use", "keep", "leave", "add", "remove",
	"test", "modify", "refactor", "rename", "move", "delete", "write", "run", "deploy", "mock", "patch", "put",
	"store", "name", "call", "log", "pin", "prefer", "make", "set", "return", "send"}

// subjectVerbs are dropped from the front of a constraint's object phrase.
var subjectVerbs = []string{"run", "use", "commit", "push", "deploy", "change", "add", "install", "touch", "edit",
	"modify", "call", "write", "put", "keep", "store", "log", "merge", "rebase", "delete", "remove", "create",
	"make", "set", "check", "ask", "expose", "import", "test", "break", "mock", "skip", "disable", "enable",
	"bump", "upgrade", "update", "rename", "send", "print", "return", "hardcode", "raise", "leave", "format",
	"do", "be", "stay", "have", "get", "go", "let", "allow", "need", "want", "ever"}

// isStopword reports a word that carries no subject.
func isStopword(w string) bool { return stopwords()[w] }

// stopwords carry no subject: a read-only lookup table.
var stopwords = lazywords.Of("the", "a", "an", "our", "this", "that", "these", "those", "my", "your", "its", "their",
	"all", "any", "some", "please", "we", "i", "you", "it", "is", "are", "was", "were", "be", "to", "of", "in",
	"on", "for", "with", "and", "or", "but", "so", "as", "at", "by", "from", "into", "not", "no", "also", "just",
	"now", "then", "there", "here", "will", "would", "should", "must", "can", "could", "do", "does", "did", "have",
	"has", "had", "always", "never", "only", "ever", "still", "again", "really", "very", "new", "real", "same",
	"own", "way", "one", "two", "don't", "doesn't", "won't", "we'll", "we're", "i'll", "let's", "it's", "that's",
	"before", "after", "when", "while", "if", "about", "than", "too", "though", "yet", "use", "using", "used")

// koreanParticles are stripped from the end of a Korean word, longest first.
var koreanParticles = korean.Particles

// koreanStop are Korean words that carry no subject.
var koreanStop = []string{"이", "그", "저", "우리", "지금", "지금은", "먼저", "그리고", "앞으로는", "앞으로", "항상", "절대",
	"반드시", "꼭", "이번", "주에", "프로젝트", "기억해", "줘", "메모해", "둬", "네", "다음", "좀", "때", "것", "수",
	"남은", "아직", "이제", "나중에", "다만", "또", "혹시", "먼저", "오늘은", "오늘"}
