@_spi(Shell) public import PatchbayCore

/// A kind of patch: its ports, its parameters, and what it does when values arrive (Wolf's
/// `Patch` subclasses). `patch types` lists them; `patchtype` defines new ones.
@_spi(Shell)
public struct PatchType: Sendable {
    /// A parameter given as `NAME=EXPR` when the patch is created.
    public struct Parameter: Sendable {
        public var name: String
        public var summary: String
        /// Whether the value is code: a string holding an expression, such as `fn="$ + 1"`.
        public var isCode: Bool
        /// The value used when the parameter is not given; `nil` when it is required.
        public var defaultValue: Value?
    }

    public let name: String
    public let summary: String
    /// The input ports; types whose inputs depend on parameters list what they usually have.
    public let inputs: [String]
    public let outputs: [String]
    /// The outputs that are event ports: they remember nothing, and every value emitted on them
    /// goes out as an event of its own, even several in one run.
    public let eventOutputs: [String]
    public let parameters: [Parameter]
    /// The ports and behaviour of one patch made with `arguments` (every parameter present).
    let instantiate: @Sendable (PatchArguments) throws(PatchTypeError) -> PatchDesign
    /// Whether the type was defined with `patchtype` rather than built in.
    public let isUserDefined: Bool
    /// The statements of a type defined with `patchtype`; `nil` for a built-in type.
    let body: StatementBlock?

    init(name: String, summary: String, inputs: [String], outputs: [String], eventOutputs: [String] = [],
         parameters: [Parameter] = [], isUserDefined: Bool = false, body: StatementBlock? = nil,
         instantiate: @escaping @Sendable (PatchArguments) throws(PatchTypeError) -> PatchDesign) {
        self.name = name
        self.summary = summary
        self.inputs = inputs
        self.outputs = outputs
        self.eventOutputs = eventOutputs
        self.parameters = parameters
        self.isUserDefined = isUserDefined
        self.body = body
        self.instantiate = instantiate
    }

    /// `map (in) -> (out)  fn=...` as `patch types` prints it.
    public var signature: String {
        ports + parameters.map { " \($0.name)=" + ($0.defaultValue.map { "\($0)" } ?? "...") }.joined()
    }

    /// `merge (a, b, c) -> (event out)`: the name and the ports, as `patchtype` takes them.
    public var ports: String {
        "\(name) (\(inputs.joined(separator: ", "))) -> (\(outputDeclarations.joined(separator: ", ")))"
    }

    /// The outputs as `patchtype` declares them: `event NAME` for an event port.
    public var outputDeclarations: [String] {
        outputs.map { eventOutputs.contains($0) ? "event \($0)" : $0 }
    }
}

/// The parameters of one patch, checked against its type.
struct PatchArguments {
    var values: [String: Value]
    /// Code parameters, parsed.
    var code: [String: Expression]

    func value(_ name: String) -> Value { values[name] ?? .null }

    func integer(_ name: String) throws(PatchTypeError) -> Int {
        guard case .int(let i) = value(name) else {
            throw .invalidParameter(name, "must be an int, not \(value(name).typeName)")
        }
        return i
    }
}

/// What a patch type makes for one patch.
struct PatchDesign {
    var inputs: [String]
    var outputs: [String]
    /// Outputs that start with a value (a counter's `count` starts at 0).
    var initialOutputs: [String: Value] = [:]
    /// Inputs that only attach the patch to what is wired into them (see `InputPort.onlyAttaches`).
    var attachingInputs: [String] = []
    /// Event inputs whose every arrival counts, which merge what many wires deliver (see
    /// `InputPort.acceptsManyWires`).
    var mergingInputs: [String] = []
    var behavior: any PatchBehavior
}

/// An error in a patch's parameters.
@_spi(Shell)
public enum PatchTypeError: Error, Sendable, Equatable {
    case missingParameter(String)
    case unknownParameter(String, known: [String])
    case invalidParameter(String, String)
    case code(parameter: String, ExpressionError, source: String)
}

/// What a patch does when values arrive.
protocol PatchBehavior: AnyObject {
    /// Runs once per wave in which an input arrived; emits outputs through `activation`.
    func activate(_ activation: inout PatchActivation) throws(PatchFailure)
    /// Runs when the patch is created (timers start here).
    func start(_ patch: PatchNode)
    /// The nodes the behaviour's code reads (samples), for evaluation order.
    var sampledNames: [String] { get }
    /// What the behaviour remembers between runs (a counter's count), as a closure that puts it
    /// back; `nil` when it remembers nothing. See `Graph.mark()`.
    func saved() -> (() -> Void)?
    /// Whether the behaviour sets timers for `purpose`.
    func sets(_ purpose: PendingTimer.Purpose) -> Bool
    /// Sets a timer for `purpose`, which it `sets`, again at `due` (a recording's opening).
    func setAgain(_ purpose: PendingTimer.Purpose, at due: Int, in patch: PatchNode)
}

extension PatchBehavior {
    func start(_ patch: PatchNode) {}

    var sampledNames: [String] { [] }

    func saved() -> (() -> Void)? { nil }

    func sets(_ purpose: PendingTimer.Purpose) -> Bool { false }

    func setAgain(_ purpose: PendingTimer.Purpose, at due: Int, in patch: PatchNode) {}
}

/// Why a patch's run failed, as the message the node's failed mark shows.
struct PatchFailure: Error {
    var message: String

    init(_ message: String) { self.message = message }

    init(_ error: ExpressionError, in expression: Expression) {
        message = error.message(in: expression.source)
    }
}

extension Expression {
    /// Evaluates for a patch, turning an error into the patch's failure.
    func evaluateForPatch(_ bindings: Bindings, in environment: any ExpressionEnvironment) throws(PatchFailure) -> Value {
        do {
            return try evaluate(bindings, in: environment)
        } catch {
            throw PatchFailure(error, in: self)
        }
    }
}
