extension CommandCatalog {
    /// The commands of SPEC section 5.
    static let routing: [CommandInfo] = [
        CommandInfo(
            name: "route",
            synopsis: "route add PATTERN [view=NAME] [option=push|modal|replace|root|back] [priority=N] [when EXPR] | route URL [NAME=EXPR ...] [option=...] | route explain URL | route list | route rm PATTERN | route check",
            summary: "register route patterns and navigate to URLs through the wireframe",
            details: ["Patterns (JLRoutes): literal segments, :name, a trailing *, optional groups (/...).",
                      "Higher priority first, then registration order; the first match wins; a false `when` passes on.",
                      "route URL presents the view, updates the stack and sends {url, pattern, params, view, option}",
                      "on router.route; a route without view= only sends. `route explain` says why each pattern failed."],
            examples: ["route add /start view=Start", "route add /message/:username view=Message option=modal",
                       "route /message/Max", "route explain /message", "route check"]),
        CommandInfo(name: "presenter", synopsis: "presenter VIEW : EXPR",
                    summary: "set a presented view's content from params, url and nodes",
                    details: ["Presenters run when their view is presented; objects they give merge (later keys win)."],
                    examples: ["presenter Message : {greeting: \"Hello \\(params.username)\"}"]),
        CommandInfo(name: "stack", synopsis: "stack", summary: "the navigation stack: each view with its url, params and content",
                    details: [], examples: ["stack"]),
        CommandInfo(name: "back", synopsis: "back", summary: "pop the top of the navigation stack", details: [], examples: ["back"]),
        CommandInfo(name: "dismiss", synopsis: "dismiss", summary: "close the top modal (and what was pushed over it)",
                    details: [], examples: ["dismiss"]),
    ]
}
