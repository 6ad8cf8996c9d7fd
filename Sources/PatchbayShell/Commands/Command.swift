@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// A parsed shell command.
enum Command: Sendable {
    /// `= EXPR`
    case evaluate(Expression)
    /// `help [TOPIC [SUBCOMMAND]]`, or `help patch TYPE`
    case help(topic: String?, subcommand: Name?, range: Range<Int>)
    /// `apropos WORD`
    case apropos(Name)
    case helpPatchType(Name)
    /// `load FILE`
    case load(path: String, range: Range<Int>)
    /// `save FILE [--force]`
    case save(path: String, range: Range<Int>, force: Bool)
    case reset
    /// `set`, `set NAME` or `set NAME VALUE`: the settings of human output (not `set NAME = EXPR`).
    case setting(name: Name?, value: Name?)
    case quit
    case dataflow(DataflowCommand)
    case store(StoreCommand)
    case route(RouteCommand)
    case timeTravel(TimeTravelCommand)
    case session(SessionCommand)
}
