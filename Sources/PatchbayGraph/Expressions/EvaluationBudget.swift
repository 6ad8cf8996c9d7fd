@_spi(Shell) import PatchbayCore
import Synchronization

/// How much one evaluation may do before it is stopped: an expression, a reducer's statements
/// for one action, a wire's transform.
///
/// **Work** counts steps: one for each part of an expression evaluated (each operator, name,
/// literal, call, and each lambda call), and one for each element a function goes through or
/// builds (`range(1000)` costs 1,000, `sort` n·log₂n). **Memory** counts the bytes of the values
/// the evaluation builds, as they are built, whether or not they are kept: 24 bytes for an
/// element of an array, 48 for a member of an object, a string's UTF-8 bytes. A value the
/// evaluation puts into one it builds (an element, a member, what a function returns or `+`
/// joins) costs its whole size there, everything it holds counted in each place it appears, even
/// when it was only read (the state, a node's value) and even when places share storage: `[a, a]`
/// costs 48 bytes and twice the size of `a`, so that doubling a value step after step spends the
/// budget long before the value becomes too large to print or record. Values the evaluation only
/// reads and passes on (the state, a node's value, a literal) cost nothing.
///
/// An evaluation that spends either budget stops with an error and changes nothing. The budget
/// of the code running on a task is `current`; bind another with `during(_:)`.
@_spi(Shell)
public struct EvaluationBudget: Sendable, Equatable, CustomStringConvertible {
    /// Steps of work.
    public var work: Int
    /// Bytes of values built.
    public var memory: Int

    public init(work: Int, memory: Int) {
        self.work = work
        self.memory = memory
        if work < EvaluationMeter.settleEvery || memory < EvaluationMeter.settleEveryBytes {
            EvaluationMeter.smallBudgetsExist.store(true, ordering: .relaxed)
        }
    }

    /// 100 million steps (a few seconds) and 1 GiB.
    public static let standard = EvaluationBudget(work: 100_000_000, memory: 1 << 30)

    /// The budget of each evaluation on this task.
    @TaskLocal public static var current: EvaluationBudget = .standard

    /// Runs `body` with this budget for each of its evaluations.
    public func during<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.$current.withValue(self, operation: body)
    }

    /// `work 100000000 steps, memory 1073741824 bytes`
    public var description: String { "work \(work) steps, memory \(memory) bytes" }

    /// The bytes an element of an array costs.
    static let elementBytes = 24
    /// The bytes a member of an object costs, besides its key's.
    static let memberBytes = 48
}

/// What an evaluation has spent of its budget, and the interruption that may stop it.
///
/// Counting is cheap: the evaluator adds up steps and bytes in two integers and settles them
/// here only every `settleEvery` steps or `settleEveryBytes` bytes, which is when it reads the
/// budget and the interruption of its task, and checks both. An evaluation shorter than that
/// never reads them. Once a budget smaller than that was made (`--work-budget 1`), evaluations
/// settle at their first step, and from then on as soon as what is pending could go over the
/// budget: a budget is kept to the step and to the byte, however small.
struct EvaluationMeter {
    static let settleEvery = 1 << 12
    static let settleEveryBytes = 1 << 20
    /// Whether a budget smaller than a settling interval was ever made in this process.
    static let smallBudgetsExist = Atomic<Bool>(false)

    /// Steps and bytes not settled yet.
    var pendingWork = 0
    var pendingMemory = 0
    /// How many steps or bytes may be pending before they are settled.
    private var settleAtWork: Int
    private var settleAtBytes: Int

    init() {
        let small = Self.smallBudgetsExist.load(ordering: .relaxed)
        settleAtWork = small ? 1 : Self.settleEvery
        settleAtBytes = small ? 1 : Self.settleEveryBytes
    }
    private var spentWork = 0
    private var spentMemory = 0
    private var limits: (budget: EvaluationBudget, interruption: Interruption?)?

    /// Counts `steps` of work and `bytes` of memory about to be spent; settles when enough has
    /// come together.
    @inline(__always)
    mutating func charge(steps: Int = 1, bytes: Int = 0) throws(EvaluationMeter.Stop) {
        pendingWork &+= steps
        pendingMemory &+= bytes
        if pendingWork >= settleAtWork || pendingMemory >= settleAtBytes { try settle() }
    }

    /// The bytes left of the memory budget, not counting what is pending.
    mutating func remainingMemory() -> Int {
        Swift.max(0, readLimits().budget.memory - spentMemory - pendingMemory)
    }

    private mutating func readLimits() -> (budget: EvaluationBudget, interruption: Interruption?) {
        if let limits { return limits }
        let read = (EvaluationBudget.current, Interruption.current)
        limits = read
        return read
    }

    /// Adds what is pending to what was spent and checks the budget and the interruption.
    mutating func settle() throws(EvaluationMeter.Stop) {
        let (budget, interruption) = readLimits()
        spentWork += pendingWork
        spentMemory += pendingMemory
        pendingWork = 0
        pendingMemory = 0
        if interruption?.isRequested == true { throw .interrupted }
        if spentWork > budget.work { throw .work(limit: budget.work) }
        if spentMemory > budget.memory { throw .memory(limit: budget.memory) }
        // Settle again no later than when the budget could be spent.
        settleAtWork = Swift.min(Self.settleEvery, Swift.max(1, budget.work - spentWork + 1))
        settleAtBytes = Swift.min(Self.settleEveryBytes, Swift.max(1, budget.memory - spentMemory + 1))
    }

    /// Why an evaluation stopped.
    enum Stop: Error {
        case interrupted
        case work(limit: Int)
        case memory(limit: Int)

        var reason: ExpressionError.Reason {
            switch self {
            case .interrupted: .interrupted
            case .work(let limit): .budgetSpent(what: "work", limit: limit, unit: limit == 1 ? "step" : "steps")
            case .memory(let limit): .budgetSpent(what: "memory", limit: limit, unit: limit == 1 ? "byte" : "bytes")
            }
        }
    }
}

extension Value {
    /// The whole size of the value as a memory budget counts it, or more than `limit` when it is
    /// more than that (see `logicalSize(elementBytes:memberBytes:upTo:)`).
    func budgetSize(upTo limit: Int) -> Int {
        logicalSize(elementBytes: EvaluationBudget.elementBytes, memberBytes: EvaluationBudget.memberBytes, upTo: limit)
    }
}

extension Value {
    /// The elements of an array, the members of an object, the bytes of a string; 1 otherwise.
    var shallowCount: Int {
        switch self {
        case .array(let elements): elements.count
        case .object(let members): members.count
        case .string(let s): s.utf8.count
        default: 1
        }
    }
}

extension Builtin {
    /// Whether the function returns a value it builds (an array, object or string), which
    /// costs memory, rather than one it finds or a number.
    var buildsResult: Bool {
        switch self {
        case .keys, .values, .append, .prepend, .insert, .remove, .removeAt, .merge, .map, .filter, .sort, .sortBy,
            .reverse, .str, .upper, .lower, .trim, .split, .join, .replace:
            true
        case .len, .contains, .get, .has, .find, .reduce, .sum, .min, .max, .abs, .round, .floor, .ceil, .num, .int,
            .bool, .type, .range:  // `range` is charged before it is built
            false
        }
    }
}
