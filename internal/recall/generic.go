package recall

import "github.com/claude-memory-layer/claude-memory-layer/internal/lazywords"

// genericWords are words any coding conversation uses: matching them says
// little about whether a stored message is about what a prompt asks, only
// that both are about code. Their weight is discounted so that an unrelated
// question ("how do I write a benchmark for a method in Kotlin?") does not
// recall a project's tests and functions, while a follow-up that names the
// project's own things (a crate, a host, a feature) still does. The store's
// own word counts cannot tell this apart: in a small project every word is
// rare.
var genericWords = lazywords.Set(`how what way work works working worked best good better right wrong again time times day days
week weeks month last first next back show shows showing see find finds found give take put set sets keep call calls
try tried start started stop end help explain difference example examples write writing written read reading create
created remove removed delete deleted update updated check checked run runs running ran build builds building built
install installed configure configured setup enable enabled disable disabled default different same simple quick
correct proper problem problems issue issues bug bugs fix fixes fixed error errors fail fails failed failing failure
broken test tests testing tested unit code file files folder directory path paths function functions method methods
class classes object objects value values type types variable variables string strings number numbers list lists array
arrays map key keys data result results return returns output input log logs message messages config configuration
setting settings option options environment version versions package packages library libraries module modules
dependency dependencies project projects app application server client request response database query queries table
tables script scripts command commands line lines program system user users name names page pages button image images
text format regex match matches loop sort struct field fields slice pointer memory thread async await promise callback
event events component components state props hook hooks style css html json yaml xml http url linux windows mac macos
python javascript typescript java rust golang ruby php node react docker git github branch commit push pull merge repo repository
look looks looked looking
main local remote change changes changed move moved copy support supports handle handles handling case cases item items
part parts place point points real whole full both each every another other others kind sort lot little big small
large long short high low today yesterday tomorrow now later soon earlier before after while during since until
can't don't doesn't isn't won't didn't wasn't does did done make makes made getting gets let lets should would could
might must may also just really actually still already ever never always often sometimes maybe probably certainly
happen happens happened rename renamed generate generated strategy approach job jobs task tasks mode service services
feature features level step steps process tool tools question answer idea reason instead around without inside
`)
