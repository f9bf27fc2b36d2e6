package observation

import (
	"reflect"
	"testing"

	"github.com/tidwall/gjson"
)

func TestSteps(t *testing.T) {
	todo := func(json string) string {
		return Build("TodoWrite", gjson.Parse(json), "Todos have been modified successfully.", false).Text()
	}
	texts := []string{
		"Bash: go test ./...\nok",
		todo(`{"todos":[{"content":"Write the parser","status":"in_progress"},{"content":"Document the flags","status":"pending"},{"content":"Try a spike","status":"pending"}]}`),
		"",
		todo(`{"todos":[{"content":"Write the parser","status":"completed"},{"content":"Document the flags","status":"pending"}]}`),
		"TaskCreate: activeForm=Adding subject=Add the retry test\n" + `{"task":{"id":"1","subject":"Add the retry test","description":""}}`,
		"TaskCreate: subject=Bump the schema\n" + `{"task":{"id":"2","subject":"Bump the schema"}}`,
		"TaskUpdate: status=completed taskId=2\n" + `{"success":true,"taskId":"2","updatedFields":["status"],"statusChange":{"from":"pending","to":"completed"}}`,
		"TaskUpdate: status=completed taskId=1\n" + `{"success":false,"taskId":"1","error":"Task not found"}`,
	}
	got := Steps(texts)
	want := []Step{
		{Subject: "Write the parser", Said: 3, Status: "completed", Set: 3},
		{Subject: "Document the flags", Said: 3, Status: "pending", Set: 3},
		{Subject: "Try a spike", Said: 1, Status: "removed", Set: 3},
		{Subject: "Add the retry test", Said: 4, Status: "pending", Set: 4},
		{Subject: "Bump the schema", Said: 5, Status: "completed", Set: 6},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Steps:\n got %+v\nwant %+v", got, want)
	}
	var open []string
	for _, s := range got {
		if s.Open() {
			open = append(open, s.Subject)
		}
	}
	if want := []string{"Document the flags", "Add the retry test"}; !reflect.DeepEqual(open, want) {
		t.Errorf("open steps %v, want %v", open, want)
	}
}
