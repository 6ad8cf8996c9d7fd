# Routing: the VISPER tutorial flow through the wireframe, with JLRoutes-style patterns.
# /start is pushed; /message/:username is presented modally, and a presenter greets the user.

route add /start view=Start
route add /message/:username view=Message option=modal
presenter Message : {greeting: "Hello \(params.username)!"}

route /start
route /message/Max%20Mustermann
stack

# Why a URL did or did not match, pattern by pattern.
route explain /message

# Optional groups, query items and a guard that passes on to the next route.
route add /user/:id(/:tab) view=User when params.id != "0"
route add /user/:id view=Guest priority=-1
route /user/42/posts?sort=asc
route /user/0

# Routes emit on router.route, so they can be wired into stores and patches.
store app = {screens: []}
reducer app on Navigated : state.screens = append(state.screens, action.view)
wire router.route -> app.dispatch when $.view != null : {type: "Navigated", view: $.view}
route /message/Ada
dismiss
route /start option=root
stack
state .screens

# The graph routes too (VISPER's presenter routing on a tap): a tap on a view patch sends
# /message/:username into router.open, which routes it as `route` does.
patch card view text="Ada" width=12 height=3
patch tapper tap
wire card.frame -> tapper.view
wire tapper.x -> router.open : "/message/" + card.text
tap card 2 1
stack

# A pattern added again with a higher priority takes its URLs (VISPER's feature priorities);
# its presenter sees the whole route result and follows the node it reads (--live). With the
# modals up, the push goes under them (VISPER's modal layering); dismiss reveals it.
var greeting = "Welcome"
route add /start view=Home priority=1
presenter Home --live : {title: greeting, from: route.pattern}
route /start
set greeting = "Welcome back"
route list
stack
dismiss
