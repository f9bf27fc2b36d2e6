package recall

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

func TestHowTo(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		prompt string
		want   bool
	}{
		{"How do I throttle a handler in a Vue composable?", true},
		// German: "wie" before "kann ich" or a verb of the first person.
		{"Wie erstelle ich eine .venv mit einem anderen Python-Interpreter?", true},
		{"Wie kann man einen Broker mit TLS absichern?", true},
		{"Wie läuft der Import jetzt?", false},
		{"Wie erstellen wir die .venv?", false},
		{"In Go, how can I sort a slice of structs by two keys?", true},
		{"What's the difference between a mutex and a channel?", true},
		{"whats the difference between a mutex and a channel", true},
		{"What does git rebase --onto do?", true},
		{"Write a regex that matches ISO dates.", true},
		{"how to center a div", true},
		{"Could you explain how a bloom filter answers lookups?", true},
		{"can you please explain the CAP theorem", true},
		{"How does a bloom filter answer a lookup so fast?", true}, // any such thing
		{"How can an iterator be reset halfway through?", true},
		{"When should I pick a B-tree index over a hash index?", true},           // advice
		{"In Rust, when would you box a trait object?", true},                    // advice
		{"When did we move the kiln jobs to the new queue?", false},              // past
		{"When should we cut the release branch for the kiln app?", false},       // ours
		{"How does the importer pick a batch size?", false},                      // the project's own
		{"How do we start the billing worker locally?", false},                   // ours
		{"How did the deploy fail last week?", false},                            // past
		{"How do I open the release checklist page we built?", false},            // ours
		{"Which port does the admin panel listen on?", false},                    // not a how-to form
		{"Where does the release checklist live, and how can I view it?", false}, // asks where a thing of the project is
		{"What was the fix for the flaky upload test?", false},
		{"Express에서 세션 쿠키 설정하는 방법 알려줘.", true},           // "how do I set … in Express, tell me"
		{"뮤텍스와 채널의 차이는?", true},                          // "the difference between"
		{"세션 쿠키는 어떤 방법으로 설정했었지?", false},                 // past: what the project did
		{"스테이징 배포 주소 알려줘.", false},                       // tell me a thing of the project
		{"지금 세션 쿠키는 어디에 저장되고 있죠?", false},                // not a how-to form
		{"이 프로젝트 테스트 실행 방법?", false},                     // "how to run this project's tests": ours
		{"빌드 결과물이 저장소에 커밋되지 않게 하는 방법은?", true},           // 이 is a particle here: "the build output … the repo"
		{"고루틴 누수 찾는 법 알려줘", true},                        // "tell me the way to find …", 방법 shortened
		{"뮤텍스가 뭔지 설명해줘", true},                           // "explain what a mutex is"
		{"개인정보 보호법 때문에 로그를 지워야 하나?", false},              // 법 glued to a noun is a law
		{"Go에서 고루틴 개수는 어떻게 제한해?", true},                  // "how do I limit … in Go?"
		{"Rust에서 라이프타임은 어떻게 동작합니까?", true},               // "how do lifetimes work in Rust?"
		{"리스트를 뒤집으려면 어떻게 하면 돼?", true},                   // "what do I do to reverse a list?"
		{"이 경우엔 어떻게 할까?", true},                          // "what should I do here?"
		{"어떻게 vite.config.ts를 설정해?", true},               // a file's dot ends no sentence
		{"배포 설정은 지금 어떻게 돼 있어?", false},                   // how a thing stands: 되다, 있다
		{"토큰은 지금 어떻게 저장하고 있어?", false},                   // how the project does it now
		{"결제 모듈은 어떻게 통합돼 있어?", false},                    // 합 in a noun
		{"세션 키는 어떻게 해시돼 있어?", false},                     // 해 beginning a word
		{"어떻게 해결했었지?", false},                            // past: what the project did
		{"설정은 어떻게 돼 있어? 테스트 해줘", false},                  // 하다 in the next sentence
		{"캐시는 어떻게 돼 있어\n테스트 좀 해줘", false},                // and after a line break
		{"어떻게든 이 버그 해결해야 해", false},                      // "somehow"
		{"Tailwind에서 다크 모드를 켜려면 설정 파일에 뭘 어떻게 넣어?", true}, // a clause of intent, then how
		{"배포를 빠르게 하려면 어떻게 했었지?", false},                  // past: what the project did
		// Chinese and Japanese, with no word placing it in the past.
		{"React + Vite 项目里怎么用 React.lazy 和 Suspense 做路由级别的代码分割？", true},
		{"如何在 FastAPI 里写一个 WebSocket 聊天室？", true},
		{"Vitest でスナップショットを更新するにはどうすればいい？", true},
		{"上次在本地第一次启动 guard API 的时候直接崩了，是什么原因？最后是怎么解决的？", false}, // last time
		{"这个 bug 最后是怎么解决的？", false},                             // how it was solved
		{"前回どうやってデプロイしたっけ？", false},                             // last time, and a past verb
		{"为了测试，怎么关掉认证？", true},                                  // "为了", in order to, is no past
		// The project's own (我们, this project, うちの) or how it stands now
		// is no how-to; nor "怎么回事", "怎么样", "怎么一直", "如何" ending
		// its clause, or 方法, a method.
		{"我们项目里现在怎么配置日志轮转？", false},
		{"这个项目的日志轮转现在如何配置？", false},
		{"このプロジェクトではログのローテーションをどうやって設定してる？", false},
		{"这个方法返回什么？", false},
		{"部署结果如何？", false},
		{"这个报错是怎么回事？", false},
		{"CI 状态怎么样？", false},
		{"测试怎么一直失败？", false},
		// "了解" (to understand), a clause ending in 了 before the question,
		// "在…之前" (before doing …) place nothing in the past.
		{"我想了解一下如何配置 nginx 反向代理", true},
		{"已经装好了 Node，怎么装 pnpm？", true},
		{"在部署之前怎么检查配置？", true},
		// "どう" before a verb's "…ばいい" (how should I …), and the
		// difference between two things, in either language.
		{"ESP32 で OLED に文字を出すには YAML をどう書けばいい？", true},
		{"Rust の axum と actix-web って何が違うの？", true},
		{"Isar と sqflite の違いは？", true},
		{"zod 的 parse 和 safeParse 有什么区别？", true},
		{"bun test 和 Jest 的差异在哪里？", true},
		{"前回 CI の YAML はどう書いたっけ？", false},                   // last time, a past verb
		{"Makefile の run と run-direct って、どう違うんだっけ？", false}, // "っけ": remind me
		{"このエラーは設定の間違いですか？", false},                         // 間違い is a mistake
		{"我们的两个配置有什么区别？", false},                            // ours
		{"어떻게?\n테스트 좀 해줘", false},                           // the question ends right after 어떻게
		{"¿Cómo escribo un middleware de Express que registre las peticiones?", true},
		{"¿Cómo corto una imagen en el servidor?", true},
		{"¿cómo se escala una foto en Go?", true},
		{"come si scala una foto in Go?", true},
		{"comment faire une miniature en Go ?", true},
		{"¿cómo está configurado el proxy ahora?", false},      // how a thing stands
		{"comment est configuré le proxy maintenant ?", false}, // how a thing stands
		{"¿cómo funciona el archivo ahora?", false},            // a verb in the third person
		{"como te dije, el archivo tarda mucho", false},        // "as I told you"
		{"¿Cuál es la diferencia entre un mutex y un canal?", true},
		{"come posso ordinare una slice in Go?", true},
		{"comment trier une slice en Go ?", true},
		{"Explícame los canales de Go", true},
		{"¿Cómo cortamos una imagen?", false},                               // "we" in the verb
		{"¿Cómo se llama la rama del rediseño?", false},                     // asks a name
		{"come si chiama il bucket delle foto?", false},                     // asks a name
		{"¿Cómo se llama a una función desde otro módulo en Python?", true}, // "call", not "is called"
		{"come si chiama una funzione da un altro file in Go?", true},
		{"¿cómo configuró nuestro equipo el proxy?", false},          // our
		{"comment out the debug logging in the worker", false},       // English
		{"why is there a difference between the two counts?", false}, // English "difference" asks of the project too
		{"Как в Go отсортировать слайс структур по полю?", true},
		{"как мне настроить ретраи в paho-mqtt 2.x?", true},
		{"Как сделать, чтобы список обновлялся сам?", true},
		{"Как зависимость от redis попала в сборку?", false}, // a noun of -ость, no infinitive
		{"Как мы запускали воркер локально?", false},         // ours
		{"Почему воркер не стартует?", false},
		{"Чем отличается горутина от потока?", true},
		{"В чём разница между map и sync.Map?", true},
		{"В чём разница map и sync.Map?", true},
		{"А как лучше настроить ретраи в paho-mqtt?", true},
		{"Подскажи, как правильно провести миграцию?", true},
		{"Чем отличался прод от стейджа в тот раз?", false}, // past: the project's two things
		{"Как зависимости попали в сборку?", false},         // a noun and a finite verb
		{"Как часть конфига попала в образ?", false},        // a noun in -ть
		{"Как пути к файлам хранятся в проекте?", false},    // a noun in -ти
		{"Как память освобождается в воркере?", false},      // a noun in -ть, a reflexive verb
		{"Как открыть канал в Go?", true},                   // nouns in -ал, -ли, -ло are no verbs
		{"Как обновить модули?", true},
		{"Как добавить правило в ruff?", true},
		{"Как настроить логирование чтобы логи сохранялись в файл?", true}, // a clause of its own
		{"Как удалить ветки которые уже смержились?", true},
		{"Как найти утечку памяти в Go?", true},
		{"Как перейти на Go 1.22?", true},
		{"Как дать права на запись в bucket?", true},
		{"Как было решено хранить токены?", false},            // past: how the project did it
		{"Как в проекте принято обрабатывать ошибки?", false}, // the project's convention
	} {
		if got := !saysOurs(tt.prompt) && howTo(tt.prompt); got != tt.want {
			t.Errorf("howTo(%q) = %v, want %v", tt.prompt, got, tt.want)
		}
	}
}

// TestHowToQuestionNeedsAStrongMatch: a store that talks about the same
// technology matches a general how-to question's words; that is no reason
// to inject. The same words asked about the project's past are answered.
func TestHowToQuestionNeedsAStrongMatch(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	// The how-to question's relevance is above the gate's floor, below
	// twice it.
	say(t, db, "a", day, "the cart shows prices like 4.9999", "A custom form field in src/fields/centPrice.ts trims the cart prices to 5 cents.")
	if got := recallFor(t, db, defaults(), "How can I build a custom form field that rounds a value?"); got != "" {
		t.Errorf("a general how-to question got an injection:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "Which field did we add to trim the cart prices?"); !strings.Contains(got, "centPrice") {
		t.Errorf("a question about our own work was not answered:\n%s", got)
	}
}

func TestNewWork(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		prompt string
		want   bool
	}{
		{"Add a dark mode toggle to the settings page", true},
		{"implement retries for the upload worker", true},
		{"Please build a small CLI that prints the queue length", true},
		{"set up linting so every commit gets checked", true},
		{"put a rate limiter in front of the login route", true},
		{"добавь эндпоинт /health для воркера", true},
		{"Пожалуйста, напишите тесты для парсера", true},
		{"pytest로 로그인 테스트 코드 작성해줄래?", true},
		{"다크 모드 토글 추가해 주세요", true},
		{"напомни, какой порт слушает воркер?", false}, // asks to be reminded
		{"какой порт слушает воркер?", false},
		{"배포 주소 알려줘", false},                                              // asks for the project's own address
		{"Add back the banner we removed", false},                         // ours
		{"add the retry that was dropped in the refactor", false},         // past
		{"Which retries does the upload worker use?", false},              // a question
		{"addresses of the staging hosts?", false},                        // "add" only begins a word
		{"the settings page should build faster, why is it slow?", false}, // the verb is not the request's first word
		{"make the nightly export use the same columns", false},           // points back to earlier work
		{"add it back", false},
		{"build the installer again", false},
		{"Add a back-office page for refunds", true}, // a compound's "back" points nowhere
		{"make the cookie same-site", true},
		{"put the back button back", false},
		// The Romance languages' imperatives, in a prompt of their
		// function words, with or without accents; a command pointing
		// back to earlier work is none.
		{"Añade soporte para audiolibros en la ficha de cada libro", true},
		{"agrega un selector de idioma en la pagina de ajustes", true},
		{"Ajoute un bouton pour exporter les notes en CSV", true},
		{"aggiungi una pagina di login con Google", true},
		{"Crie um endpoint para listar os pedidos", true},
		{"por favor, implementa la exportación a PDF", true},
		{"agrega de nuevo el botón de exportar", false},
		{"crea el mismo script que antes", false},
		{"¿Qué paleta de colores proponía el plan?", false},
		// A question in the present is none, though its verb is spelled
		// as the imperative.
		{"¿Genera el build los source maps?", false},
		{"Faz sentido manter o Redis aqui?", false},
		{"Inclui os testes de integração no pipeline?", false},
		{"gracias, ahora haz commit y push de esto", true},
		// Japanese's request ends the prompt or a sentence; Chinese's
		// writes "a" thing; Korean's "짜줘" writes code.
		{"cheerio で HTML の table をパースして JSON に変換するコードを書いて", true},
		{"ダークモードの切り替えボタンを作ってください。", true},
		{"帮我写一个 Express 的服务，收到 SIGTERM 时优雅关闭", true},
		{"用 Octokit 写个 Node 脚本，列出我所有仓库", true},
		{"바닐라 JS로 다크모드 토글 버튼 코드 짜줘", true},
		{"前回と同じ設定でテストを書いて", false},       // the same as last time
		{"上次那个脚本，再照着写一个一样的", false},      // last time, the same
		{"書いてあるとおりに動かない理由は？", false},     // "as written": no request
		{"わかりました、ログイン画面を作ってください。", true}, // "understood": no past
		{"这个模块实现一个什么功能？", false},         // a question about the module
		{"배포 날짜 줘", false},               // 날짜, a date
	} {
		if got := !saysOurs(tt.prompt) && newWork(tt.prompt); got != tt.want {
			t.Errorf("newWork(%q) = %v, want %v", tt.prompt, got, tt.want)
		}
	}
}

// TestNewWorkNeedsAStrongMatch: a request for a feature never discussed
// matches the project's words for the place it goes (a page, a worker);
// that is no reason to inject what was said about that place. A request
// that matches what was said of it is still answered.
func TestNewWorkNeedsAStrongMatch(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	// Relevance 0.48 for the first request: above the gate's floor, below
	// twice it.
	say(t, db, "inv", day, "What should the invoice page show for each order?",
		"The invoice page lists each order with its total in euros and the customer's billing address, newest first.")
	if got := recallFor(t, db, defaults(), "Add a printable receipt layout to the invoice page"); got != "" {
		t.Errorf("a request for new work got an injection:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "Add a refund button beside each order on the invoice page"); !strings.Contains(got, "euros") {
		t.Errorf("a request matching what the project said of its page got nothing:\n%s", got)
	}
	// The same request put as a proposal: its "we" is who will do the work.
	if got := recallFor(t, db, defaults(), "can we add a printable receipt layout to the invoice page?"); got != "" {
		t.Errorf("a proposal of new work got an injection:\n%s", got)
	}
	// A question about what the project does with "we" in it is no
	// proposal, nor a request that points back to what was discussed.
	for _, p := range []string{"what do we show on the invoice page?",
		"can we add the printable receipt layout to the invoice page as discussed?"} {
		if got := recallFor(t, db, defaults(), p); !strings.Contains(got, "euros") {
			t.Errorf("%q got nothing:\n%s", p, got)
		}
	}
}

// TestOurPageInAWorkRequest: a request for new work on "our" page, whose
// only match is a diff of that page, gets nothing, whether put as a
// command, as "how should we …" or as "should we …"; a question about
// the page's past gets the diff.
func TestOurPageInAWorkRequest(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	ran(t, db, "notes", "Edit: /app/src/pages/notes.astro\n  <section class=\"notes-list\">\n-   <h2>Notes</h2>\n+   <h2>Your notes</h2>\n  </section>")
	wantNothing(t, db, "add tags to the notes list section of our notes page",
		"How should we add tags to the notes list section of our notes page?",
		"Should we add tags to the notes list section of our notes page?")
	if got := recallFor(t, db, defaults(), "what did we change in the notes list section of our notes page?"); !strings.Contains(got, "Your notes") {
		t.Errorf("the question about the page's past got:\n%s", got)
	}
}

// TestOurThingNeverSpokenOfInAWorkRequest: a request for new work the
// project never spoke of meets the bar with "our" in it, put as a command
// or as "how should we …?", whose "version" asks no release tool; the
// project's talk of the place the work goes is no answer. A question about
// that place is answered.
func TestOurThingNeverSpokenOfInAWorkRequest(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "help", day, "how do i rebuild the help pages?", "Run make help-pages; the help pages are built from docs/help into public/help.",
		"the help pages version banner is wrong", "Fixed: the help pages now show the version from package.json in their banner.")
	wantNothing(t, db, "add a braille version of our help pages", "How should we add a braille version of our help pages?")
	if got := recallFor(t, db, defaults(), "how do we rebuild our help pages?"); !strings.Contains(got, "make help-pages") {
		t.Errorf("the question about the help pages got:\n%s", got)
	}
}

// TestRequest: a proposal or wish for new work is read as the command it
// puts politely; a proposal of anything else keeps its "we".
func TestRequest(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ prompt, want string }{
		{"can we add comments under each post?", "add comments under each post?"},
		{"Could you please build a status page", "please build a status page"},
		{"ok, let's implement the export", "implement the export"},
		{"ok so can we add a footer", "add a footer"},
		{"> **can we add a footer**", "add a footer**"},
		{"let us add a footer", "add a footer"},
		{"I’d like to add a dark mode toggle", "add a dark mode toggle"},
		{"we'd like you to add a dark mode toggle", "add a dark mode toggle"},
		{"we need to set up a staging server", "set up a staging server"},
		{"can we make it work again?", "can we make it work again?"},                                   // points back (againRE)
		{"can we add back the banner we removed?", "can we add back the banner we removed?"},           // points back
		{"can we add the receipt layout as discussed?", "can we add the receipt layout as discussed?"}, // points back
		{"should we keep the cache?", "should we keep the cache?"},                                     // no work verb
		{"should we build it with Java 17?", "should we build it with Java 17?"},                       // asks for a decision
		{"will we make the release date?", "will we make the release date?"},                           // a forecast
		{"can we build on ARM?", "can we build on ARM?"},                                               // what the project can do
		{"could we write to S3 from the worker?", "could we write to S3 from the worker?"},
		{"can we deploy on Fridays?", "can we deploy on Fridays?"},               // asks what the project allows
		{"why can we not build on Windows?", "why can we not build on Windows?"}, // not an opener
		{"How should we add a printable invoice view?", "add a printable invoice view?"},
		{"Should we add a changelog page to the docs?", "add a changelog page to the docs?"},
		{"how should we add tags to the notes page?", "add tags to the notes page?"},
		{"How would we add i18n to the settings page?", "add i18n to the settings page?"},
		{"how would we generate the api client?", "how would we generate the api client?"}, // a thing the project has
		{"should we build on ARM?", "should we build on ARM?"},                             // what the project can do
		{"how do we add a migration here?", "how do we add a migration here?"},             // the project's own way
		{"how can we add a new migration for the orders table?", "how can we add a new migration for the orders table?"},
		{"how should we generate the api client?", "how should we generate the api client?"}, // a thing the project has
		{"Should we add the retry to the importer as well?", "Should we add the retry to the importer as well?"},
		{"how should we name the flag?", "how should we name the flag?"}, // no work verb
	} {
		if got := request(tt.prompt); got != tt.want {
			t.Errorf("request(%q) = %q, want %q", tt.prompt, got, tt.want)
		}
	}
}

// TestNamesProject: the project named as what a prompt asks about, not a
// compound that names another thing.
func TestNamesProject(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		prompt string
		want   bool
	}{
		{"which next.js release is this site on", true},
		{"is the logs/ dir in the repo where the dev output ends up?", true},
		{"how do i run the site locally now?", true},
		{"where does the app's data live?", true},
		{"does the site have a build step?", true},
		{"what did we deploy? the site.", true},
		{"how do I use the app router layouts?", false},
		{"how do I publish to the App Store?", false},
		{"what is the repository pattern?", false},
		{"clean the site-packages folder", false},
		{"open the app.py file", false},
		{"list the apps installed", false},
		{"the application server is slow", false},
	} {
		if got := namesProject(tt.prompt); got != tt.want {
			t.Errorf("namesProject(%q) = %v, want %v", tt.prompt, got, tt.want)
		}
	}
}

// TestRomanceHowToNeedsAStrongMatch: a how-to question in Spanish is held to
// the bar an English one is; the same question asked of what "we" did is
// answered.
func TestRomanceHowToNeedsAStrongMatch(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	// Relevance 0.64 for the how-to question: above the gate's floor, below
	// twice it.
	say(t, db, "a", day, "the archive keeps every image at full size", "The nightly step in jobs/shrink.sh cuts each image in the archive to a size of 1024 px.")
	if got := recallFor(t, db, defaults(), "¿Cómo corto una imagen?"); got != "" {
		t.Errorf("a Spanish how-to question got an injection:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "¿Cómo cortamos una imagen?"); !strings.Contains(got, "shrink.sh") {
		t.Errorf("a Spanish question about our own work was not answered:\n%s", got)
	}
}

// TestHowToQuestionEverydayWords: a how-to question's everyday words say it
// is about the stack, not about the project. In a small store each was
// written once or twice, so matching three of them was as strong a match as
// three names, and the question was answered with the message holding them.
func TestHowToQuestionEverydayWords(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	for i := range 6 {
		say(t, db, fmt.Sprintf("chores-%d", i), day.AddDate(0, 0, -20+i),
			fmt.Sprintf("Rename the sprinkler zone %d labels in the settings panel.", i),
			"Done: the settings panel reads the zone labels from zones.json now.")
	}
	say(t, db, "garden", day,
		"Put a note on the front screen.",
		"The front screen now shows your note above the plant list.")
	if got := recallFor(t, db, defaults(), "How do I add a note to a front screen?"); got != "" {
		t.Errorf("a how-to question matching everyday words got an injection:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "Where did we put the note?"); !strings.Contains(got, "above the plant list") {
		t.Errorf("a question about the project's screen was not answered:\n%s", got)
	}
}

// TestThisProjectInOtherLanguages: "this project" asks of the project
// as "we" does, in each language recall reads it in; "this" before
// another noun, or the noun alone, does not.
func TestThisProjectInOtherLanguages(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		prompt string
		want   bool
	}{
		{"Qual é a versão exata do Next.js instalada neste projeto?", true},
		{"¿Qué versión de Node usa este proyecto?", true},
		{"Quelle version de Node utilise ce projet ?", true},
		{"Quale versione di Node usa questo progetto?", true},
		{"Welche Node-Version nutzt dieses Projekt?", true},
		{"Какая версия Node стоит в этом проекте?", true},
		{"Qual é a versão exata do Next.js em um projeto novo?", false},
		{"¿Qué versión de Node usa este servidor?", false},
		{"Какая версия Node нужна для проекта?", false},
	} {
		got := saysOurs(c.prompt) || romanceWe(c.prompt) || germanWe(c.prompt)
		if got != c.want {
			t.Errorf("%q asks of the project: %v, want %v", c.prompt, got, c.want)
		}
	}
}

// TestRomanceWeIsNoAdjective: a verb of the first person plural says "we";
// an adjective or noun of the same ending, stressed on its third syllable
// from the end and so written with an accent, does not.
func TestRomanceWeIsNoAdjective(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		prompt string
		want   bool
	}{
		{"¿qué rama abrimos para el tablero?", true},
		{"¿en qué puerto escuchábamos antes?", true},
		{"¿dónde guardábamos las copias de la base?", true},
		{"¿qué tal si lo hiciéramos con colas?", true},
		{"¿dónde está nuestro tablero?", true},
		{"¿qué trae React en sus últimos lanzamientos?", false},
		{"¿cuáles son los mínimos de memoria de Postgres?", false},
		{"¿cómo pido préstamos para la tienda?", false},
	} {
		if got := romanceWe(c.prompt); got != c.want {
			t.Errorf("romanceWe(%q) = %v, want %v", c.prompt, got, c.want)
		}
	}
}

// TestPast: a question about what happened, by its verb's tense, in the
// languages whose mark of the past is regular enough to read: not Russian,
// whose -л many nouns wear.
func TestPast(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		prompt string
		want   bool
	}{
		{"why did the nightly import stop?", true},
		{"배포 주소 바꿨었지?", true},
		{"why does the nightly import stop?", false},
		{"какой порт слушает воркер?", false},
		{"добавь эндпоинт /health", false},
		{"какой питон uv подтянул, когда создавал venv?", false}, // Russian's past is not read
		{"какое правило lint нарушает orders sync?", false},
	} {
		if got := past(tt.prompt); got != tt.want {
			t.Errorf("past(%q) = %v, want %v", tt.prompt, got, tt.want)
		}
	}
}

// TestPastOrNowParticiple: a participle after a determiner describes a
// thing ("a deployed Worker"), a release's past is the world's, and a word
// of an identifier is no verb; any other tells what happened.
func TestPastOrNowParticiple(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		prompt string
		want   bool
	}{
		{"Which kiln command tails the logs of a deployed worker?", false},
		{"Where does the cached glaze page live?", false},
		{"Which header does each signed URL carry?", false},
		{"Where is the glaze worker deployed?", true},
		{"Which glaze page got cached twice?", true},
		{"What did the kiln log say when the import stopped?", true},
		{"Which worker deployed the cached page?", true}, // "worker deployed" tells what happened
		{"Kiln 3.2 added glaze timers. Is it just kiln.timers.enabled=true?", false},
		{"Is glaze_enabled on?", false},
		{"Which commit added the kiln timer?", true},
		{"The kiln import stopped. Why is that?", true},          // a full stop joins nothing
		{"Which commit re-enabled the kiln cache?", true},        // a hyphen is no identifier
		{"Which files changed/moved in the kiln spec?", true},    // nor a slash between words
		{"Which kiln step that failed should I rerun?", true},    // "that" is the subject
		{"Which kiln step did that? The one we deployed?", true}, // "we deployed"
	} {
		if got := pastOrNow(tt.prompt, nil); got != tt.want {
			t.Errorf("pastOrNow(%q) = %v, want %v", tt.prompt, got, tt.want)
		}
	}
}

// TestPastOrNowRussian: a Russian question in the past tense asks what
// the project did, by the endings of its past that no developer's noun
// wears; the nouns review 149 found (-ал, -ол, -ел, -ули, -ило) and a verb
// in the subjunctive ("чтобы … обновлялся") are no past.
func TestPastOrNowRussian(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		prompt string
		want   bool
	}{
		{"Какую сборку node подхватил docker compose?", true},
		{"Какой порт был у брокера?", true},
		{"Почему сборка сломалась?", true},
		{"Кто удалил ветку release?", true},
		{"Какой канал слушает воркер?", false},
		{"Какой протокол и какие модули использует шлюз?", false},
		{"Какое правило ruff нарушает этот файл?", false},
		{"Где раздел с деталями конфига?", false},
		{"Что нужно, чтобы список обновлялся?", false},
		{"Ruff пропустил этот файл.", false},                         // no question
		{"Сколько правил у линтера?", false},                         // rules, no verb
		{"Какой профиль у Михаил?", false},                           // a name
		{"Нужно, чтобы сервер не падал, а логи сохранялись?", false}, // the subjunctive past a comma
		{"Установил бы ты redis?", false},                            // the subjunctive after it
		{"Кто удалил ветку, и почему она пропала?", true},
		{"Не мог бы ты глянуть, что изменилось в API?", true}, // "бы" is its own clause's
		{"Хотел бы понять, почему сломалась сборка?", true},
		{"Чтобы разобраться: что изменилось в API?", true},
	} {
		if got := pastOrNow(tt.prompt, nil); got != tt.want {
			t.Errorf("pastOrNow(%q) = %v, want %v", tt.prompt, got, tt.want)
		}
	}
	// With the dictionary, a past of any ending whose infinitive is a
	// headword; the nouns of the same shape, and a verb it lacks, are none.
	for _, tt := range []struct {
		prompt string
		want   bool
	}{
		{"Какую базу мы в итоге использовали для очереди?", true},
		{"Кто сломал сборку вчера?", true},
		{"Какую библиотеку взяли для клиента?", true}, // a stem of two letters, взять
		{"Где стол с конфигами?", false},              // a noun of that shape
		{"Какие ветки удалили после релиза?", true},
		{"Какой канал и какие модули слушает воркер?", false},
		{"Где раздел с деталями конфига?", false},
		{"Какой терминал нужен для сборки?", false},
		{"Что нужно, чтобы сборку запускали по расписанию?", false},
		{"Кто создал .venv?", false}, // "создать" is no headword of the table
		{"Где начало лога?", false},
		{"Что проверить до начала миграции?", false},
	} {
		if got := pastOrNow(tt.prompt, repoGlosses()); got != tt.want {
			t.Errorf("pastOrNow(%q, dictionary) = %v, want %v", tt.prompt, got, tt.want)
		}
		if pastOrNow(tt.prompt, nil) && !tt.want {
			t.Errorf("pastOrNow(%q) without the dictionary = true", tt.prompt)
		}
	}
}

// TestEverydayRequestGetsNothing: "thanks, looks good — commit it" asks
// for work on what the session just did; in a small store whose answers
// say "let me look at …", its everyday verbs are rare, yet they are as
// generic as "see" and "check", and a git verb is as generic as "commit".
func TestEverydayRequestGetsNothing(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	say(t, db, "s1", day.AddDate(0, 0, -2), "The kiln page crashes on load.", "Let me look at the kiln page logs more carefully.")
	say(t, db, "s2", day.AddDate(0, 0, -1), "Why is the glaze list empty?", "Let me look at the glaze query; it filters on a column that is null.")
	say(t, db, "s3", day, "Push the glaze fix.", "Pushed to origin; the glaze list shows all rows again.")
	wantNothing(t, db, "thanks, looks good — commit it", "ok, push it")
	if got := recallFor(t, db, defaults(), "why was the glaze list empty?"); !strings.Contains(got, "null") {
		t.Errorf("the follow-up was not answered:\n%s", got)
	}
}

// TestPastOrNowForeign: a question of German or a Romance language asks
// what happened by its past tense's auxiliary or ending, and how things
// stand by its word for now, as Russian and Korean ones do; a how-to
// question or a present one in those languages asks neither, and an
// English prompt is not read for their words ("era", "fue").
func TestPastOrNowForeign(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		prompt string
		want   bool
	}{
		{"Welchen Port hatten wir für den Broker eingestellt?", true},
		{"Welche Datenbank ist jetzt in der Spezifikation?", true},
		{"Wie richte ich einen Broker mit TLS ein?", false},
		{"¿Qué base de datos quedó al final en la especificación?", true},
		{"¿Qué puerto usábamos para el broker?", true},
		{"¿Qué puerto usa ahora el broker?", true},
		{"¿Cómo configuro un broker con TLS?", false},
		{"Qual porta o broker usou na primeira vez?", true},
		{"Quel port les brokers utilisaient avant la migration ?", true},
		{"Quale porta abbiamo scelto per il broker?", true},
		{"в какой секции сейчас лежит список правил?", true},
		{"Renderの現在の公開URLは？", true},
		{"era the broker slow?", false},
		// Present tenses that look past, and an English prompt with a
		// Romance word, read neither.
		{"¿Existe un endpoint para exportar?", false},
		{"¿Qué contraste tiene el botón?", false},
		{"Parfait, comment je lance les tests ?", false},
		{"Nous avons besoin d'un cache ?", false},
		{"Abbiamo bisogno di una coda?", false},
		{"What’s the agora channel name format?", false},
		{"Nous avons choisi quel port pour le broker ?", true},
		{"Tu l'avais mis sur quel port, le broker ?", true}, // the pluperfect, any person
		{"Quels avions le broker suit-il ?", false},         // planes
	} {
		if got := pastOrNow(tt.prompt, nil); got != tt.want {
			t.Errorf("pastOrNow(%q) = %v, want %v", tt.prompt, got, tt.want)
		}
	}
	for _, tt := range []struct {
		prompt string
		want   bool
	}{
		{"Sind die Hook-Skripte im Repo, oder hatten wir die rausgelassen?", true},
		{"Welche Farbe hat unsere Marke?", true},
		{"Wie schreibe ich einen Test für einen Broker?", false},
		{"wir is no English word", false},
	} {
		if got := germanWe(tt.prompt); got != tt.want {
			t.Errorf("germanWe(%q) = %v, want %v", tt.prompt, got, tt.want)
		}
	}
}

// FuzzPromptForm: reading a prompt's form never panics; a request is the
// prompt or a suffix of it.
func FuzzPromptForm(f *testing.F) {
	for _, s := range []string{"can we add comments under each post?", "> **can we add a footer**", "where does the app's data live?",
		"добавь эндпоинт /health", "추가해 주세요", "the site-packages", "\xffthe app", "let's", "the ",
		"which gh version is on this machine?", "neste projeto", "- **Database**: X\n- **Queue**: Y", "method-not-allowed",
		"Did Node 22 make require() work?", "What did Apollo's response say?", "is Storybook’s addon needed?", "ＡＢＣ did Ｘ"} {
		f.Add(s)
	}
	dict := repoGlosses()
	f.Fuzz(func(t *testing.T, prompt string) {
		if r := request(prompt); !strings.HasSuffix(prompt, r) {
			t.Errorf("request(%q) = %q, no suffix of it", prompt, r)
		}
		_ = namesProject(prompt)
		_, _, _ = newWork(prompt), howTo(prompt), pastOrNow(prompt, dict)
		_, _, _ = saysOurs(prompt), romanceWe(prompt), germanWe(prompt)
		if worldPast(prompt) && !past(prompt) {
			t.Errorf("worldPast(%q) without a past auxiliary", prompt)
		}
		for _, w := range lowerRuns(prompt) {
			_ = writtenAsName(prompt, w)
		}
		for _, l := range specLines(prompt) {
			if !strings.Contains(prompt, l) {
				t.Errorf("specLines(%q) gave %q, no line of it", prompt, l)
			}
		}
		cs := withStatusCodes(concepts(prompt, dict), prompt)
		for _, c := range cs {
			if len(c.forms) != len(c.keys) {
				t.Errorf("concept %v has %d keys", c.forms, len(c.keys))
			}
		}
	})
}

// TestForeignHowToWordsCount: a how-to question in another language asks
// about what its own words name; those the project never wrote weigh as
// an English prompt's unseen words do, so its one technical word the store
// shares does not clear the how-to bar alone. The same store answers the
// question about its own work.
func TestForeignHowToWordsCount(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	// A Vite project: its name and src are in many messages.
	for i := range 8 {
		say(t, db, fmt.Sprint("dev-", i), day.AddDate(0, 0, -20+i), fmt.Sprintf("start the dev server for page %d", i),
			fmt.Sprintf("Vite is serving src/page%d.tsx on port 5173.", i))
	}
	say(t, db, "vite", day, "why does the build put assets under /app?", "The Vite config sets base to /app/ so the src bundle is served from the subpath.")
	if got := recallFor(t, db, defaults(), "Как в Vite настроить алиас @ на папку src?"); got != "" {
		t.Errorf("a Russian how-to question got an injection:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "Почему мы поставили base /app/ в конфиге Vite?"); !strings.Contains(got, "base to /app/") {
		t.Errorf("a question about our own work was not answered:\n%s", got)
	}
}

// TestAfterSetting: the "in <setting>, " that may open a how-to question,
// read as howToRE read it when the expression held it.
func TestAfterSetting(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ prompt, want string }{
		{"In Go, how can I sort a slice?", "how can I sort a slice?"},
		{"  in bash, how do I loop?", "how do I loop?"},
		{"in a,b, how do I loop?", ""}, // a comma inside the setting
		{"in what way, how do I?", "how do I?"},
		{"in which file? how do I", ""}, // a question mark before the comma
		{"in " + strings.Repeat("x", 41) + ", how do I loop?", ""},
		{"in " + strings.Repeat("é", 40) + ", how do I loop?", "how do I loop?"}, // runes, not bytes
		{"in, how do I", ""},
		{"in Go,  how do I loop?", ""}, // the lead-in was ", " and the question
		{"in Go, \nhow do I loop?", ""},
		{"inside Go, how do I", ""},
		{"how do I loop?", ""},
	} {
		if got := afterSetting(tt.prompt); got != tt.want {
			t.Errorf("afterSetting(%q) = %q, want %q", tt.prompt, got, tt.want)
		}
	}
}

// TestPastOrNowCJK: a Chinese or Japanese question about how things stand
// now, or about what happened, refers to the project, by the words cjkHowTo
// reads too, in simplified and traditional writing; one with none of them
// does not.
func TestPastOrNowCJK(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		prompt string
		want   bool
	}{
		{"现在用的是哪个数据库？", true},
		{"目前的缓存策略是什么？", true},
		{"當前的部署區域是哪個？", true},
		{"今のポート番号は？", true},
		// The past, and "last time", ask what the project did.
		{".venv の Python はどれだったっけ？", true},
		{"上次部署用的是哪个区域？", true},
		{"缓存的问题解决了吗？", true},
		{"部署好了吗？", true},
		{"あなたのおすすめのカフェはどこ？", false}, // あなたの holds no past
		{"そっけない返事の理由は？", false},
		{"哪个数据库适合做缓存？", false},
		{"キャッシュにはどのDBが向いている？", false},
	} {
		if got := pastOrNow(tt.prompt, nil); got != tt.want {
			t.Errorf("pastOrNow(%q) = %v, want %v", tt.prompt, got, tt.want)
		}
	}
}

func TestWorldPast(t *testing.T) {
	for _, c := range []struct {
		prompt string
		want   bool
	}{
		{"Did Node 22 make require() of ES modules work without a flag?", true},
		{"Did NumPy 2.0 remove np.float_?", true},
		{"I read that Tailwind v4 moved the theme into CSS. Did they drop tailwind.config.js entirely?", true},
		{"Which version was Prisma 6 released with?", false}, // not right after the question word
		{"did we block that?", false},
		{"Which of the options did I pick in the end?", false},
		{"Did Claude finish the migration?", false},
		{"What did Apollo's response actually say?", false},
		{"back when the site was CDN React, why couldn't I open it?", false},
		{"What was actually wrong?", false},
		{"Did Node 22 break the build, or did we?", false}, // "or did" opens no question
		{"What did NumPy 2.0 remove?", true},
		// A name alone is as often the project's own service or tool
		// (review 310), and "they" the project's own things.
		{"Did Vercel pick up the new env var?", false},
		{"Why did Jest time out on the login tests?", false},
		{"Was Redis the bottleneck?", false},
		{"I ran the tests again. Did they pass?", false},
		{"Was PR 42 merged?", false},
		{"How do I read a file in Go?", false},
	} {
		if got := worldPast(c.prompt); got != c.want {
			t.Errorf("worldPast(%q) = %v, want %v", c.prompt, got, c.want)
		}
	}
}

// FuzzRegularPast: reading a prompt's past never panics, whatever its
// bytes (a dot or an "=" at either end, invalid UTF-8).
func FuzzRegularPast(f *testing.F) {
	for _, s := range []string{"Kiln 3.2 added timers.", "x.enabled=", ".stopped", "the deployed\xff", "a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prompt string) { regularPast(prompt) })
}

// TestHowWe: a how-to question whose subject may be "we", in the
// languages howWe reads; not one about what happened, one asking how to
// know how things stand, nor one that asks no "how".
func TestHowWe(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		prompt string
		want   bool
	}{
		{"How do we add a health check to our worker?", true},
		{"how should we handle retries in the importer?", true},
		{"So how do we add a health check to our worker?", true}, // a filler first
		{"In Go, how can we sort a slice of structs by two keys?", true},
		{"How do I add a health check to our worker?", true}, // howTo's, "our" beside it
		{"Как нам добавить метрики в наш сервис?", true},
		{"¿Cómo podemos agregar pruebas a nuestro proyecto?", true},
		{"¿Cómo agrego pruebas a nuestro proyecto?", true},
		{"¿Cómo hacemos el despliegue de nuestro proyecto?", true},       // -emos: the present only
		{"¿Cómo configuramos el despliegue de nuestro proyecto?", false}, // -amos: as often a past
		{"Как мы настраиваем миграции в нашем сервисе?", true},
		{"Как мы настраивали миграции в нашем сервисе?", false}, // past
		{"Comment pouvons-nous ajouter des tests à notre projet ?", true},
		{"How did we add the health check?", false},                    // past
		{"¿Cómo hicimos el despliegue de nuestro proyecto?", false},    // a verb of "we" in the past
		{"¿Cómo resolvimos el error de nuestro proyecto?", false},      // likewise
		{"Wie können wir Tests zu unserem Projekt hinzufügen?", false}, // German: not read
		{"How can we be sure the migration ran on staging?", false},    // how things stand
		{"How would we know the nightly import failed?", false},        // likewise
		{"What do we use for the health check?", false},                // no how
		{"How does our worker pick a batch size?", false},              // how a thing stands
		{"¿Cómo se llama nuestra rama principal?", false},              // a name asked
		{"We need to add a health check to the worker", false},
	} {
		if got := howWe(tt.prompt, howTo(tt.prompt)); got != tt.want {
			t.Errorf("howWe(%q) = %v, want %v", tt.prompt, got, tt.want)
		}
	}
}

// TestHowWeNamingSomethingNew: "how do we …" naming a term the project
// never wrote asks how to do new work; the project's talk of the place it
// would go (its server, a report calling its errors graceful) is no
// answer. The project's own way of doing a thing it did is answered, and
// so is a question naming the new term that asks how things stand now or
// how to know them.
func TestHowWeNamingSomethingNew(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "srv", day, "how do i restart the mcp server?", "Run npm run restart:mcp; the MCP server reloads its tools from tools/ on start.")
	ran(t, db, "review", "Task: review the mcp server\nThe MCP server's error handling is graceful: tools/search.ts returns an empty list on a timeout.")
	// A name of everyday words ("Playwright", "Sphinx") written as one is
	// a term, and so in Spanish, whose dictionary reads "playwright" as a
	// form of "playa".
	wantNothing(t, db, "How do we handle SIGHUP for a graceful config reload in our MCP server?",
		"So how can we handle SIGHUP for a graceful config reload in our MCP server?",
		"¿Cómo podemos manejar SIGHUP en nuestro servidor MCP?",
		"How do we add browser tests with Playwright to our MCP server?",
		"¿Cómo agrego pruebas con Playwright a nuestro servidor MCP?")
	// A Spanish word its dictionary lacks ("dejen", a subjunctive) is no
	// new term: the project's own way is answered.
	if got := recallFor(t, db, defaults(), "¿Cómo hacemos para que dejen de fallar las herramientas de nuestro servidor?"); !strings.Contains(got, "restart:mcp") {
		t.Errorf("the Spanish question about the project's own way got:\n%s", got)
	}
	// The project's own way, and a question about how things stand, with
	// the same unseen term: "now", or how to know it.
	for _, q := range []string{
		"How do we restart our MCP server?",
		"How do we restart our MCP server after a SIGHUP now?",
		"How would we know our MCP server restarted after a SIGHUP?",
	} {
		if got := recallFor(t, db, defaults(), q); !strings.Contains(got, "restart:mcp") {
			t.Errorf("%q got:\n%s", q, got)
		}
	}
	// A word among the commonest of programming talk ("API") names no new
	// work, though this store never wrote it: the decision is answered.
	db = storetest.Open(t)
	filler(t, db)
	say(t, db, "jwt", day, "For JWT signing we'll use HS256 with a shared secret.", "Noted: JWT signing uses HS256 with a shared secret.",
		"Let's switch from HS256 to RS256 keys in ./keys for JWT signing.", "Switched: JWT signing now uses RS256 keys in ./keys.")
	if got := recallFor(t, db, defaults(), "How should we sign the JWT tokens for the API?"); !strings.Contains(got, "RS256") {
		t.Errorf("the signing decision got:\n%s", got)
	}
}

// TestNewTerm: the terms a how-we question names as new work (newTerm),
// read against a store: a word no text holds and code's commonest words
// do not include, an identifier glued from parts the store holds apart
// but never so, a name of everyday words; not "API", nor a Spanish form
// its dictionary lacks.
func TestNewTerm(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "srv", day, "how do i restart the mcp server?", "Run npm run restart:mcp; the graph of tools reloads from tools/ on start.")
	for _, tt := range []struct {
		prompt string
		want   bool
	}{
		{"How do we handle SIGHUP in our MCP server?", true},
		{"How do we query our MCP server's tools through GraphQL?", true}, // "graph" is the store's, "GraphQL" is not
		{"How do we test our MCP server with Playwright?", true},          // a name, though an everyday word
		{"How do we restart the MCP server's API?", false},                // among code's commonest words
		{"¿Cómo hacemos para que dejen de fallar las herramientas de nuestro servidor?", false},
	} {
		cs, _, err := newTermCounts(db, "").weigh(context.Background(), concepts(tt.prompt, repoGlosses()), true)
		if err != nil {
			t.Fatal(err)
		}
		if got := namesUnseenTerm(cs, nil, tt.prompt, repoGlosses(), newTerm); got != tt.want {
			t.Errorf("namesUnseenTerm(%q, newTerm) = %v, want %v", tt.prompt, got, tt.want)
		}
	}
}
