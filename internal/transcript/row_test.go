package transcript

import "testing"

func TestTaskNotification(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"<task-notification>\n<task-id>a1</task-id>\n<result>The relay is fine.</result>\n</task-notification>":  true,
		" \n<task-notification><summary>Background command \"npm test\" completed</summary></task-notification>": true,
		"<date-picker> won't render in Safari":                        false, // a custom element's tag is the user's
		"what did the <task-notification> say about the relay board?": false,
	} {
		if got := TaskNotification(text); got != want {
			t.Errorf("TaskNotification(%q) = %v, want %v", text, got, want)
		}
	}
}
