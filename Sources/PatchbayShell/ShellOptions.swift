public import Foundation

/// How a shell renders its output, and where it finds files.
@_spi(Shell)
public struct ShellOptions: Sendable {
    /// One JSON object per line (`--json`, PatchbayHost.docc/CommandLanguageTour.md) instead of human-readable text.
    public var json: Bool
    /// ANSI colour in human output; only ever set for a terminal without `NO_COLOR`.
    public var color: Bool

    /// Print each script line after a prompt before running it, as a transcript does (human
    /// output only).
    public var echo: Bool

    /// The time a recording's header gives as its start; tests fix it.
    public var now: @Sendable () -> Date

    /// The directory that relative paths typed at the prompt name files in; the process's
    /// current directory when `nil`. (A script's relative paths name files beside it first,
    /// and a replay's beside the recording.)
    public var directory: String?

    /// The terminal's width in columns, which `help` wraps its lines to (80 when the output is
    /// not a terminal); `set width` overrides it (see `lineWidth`).
    public var width: Int

    /// The terminal's height in rows, when the output is a terminal: output taller than this
    /// is long (`CommandOutcome.isLong`), which the terminal side pages. `nil` never pages.
    public var height: Int?

    /// The user's settings (`set`, and the rc file): never part of a recorded session.
    public var settings: ShellSettings

    public init(json: Bool = false, color: Bool = false, echo: Bool = false, now: @escaping @Sendable () -> Date = Date.init,
                directory: String? = nil, width: Int = 80, height: Int? = nil, settings: ShellSettings = ShellSettings()) {
        self.width = Swift.max(20, width)
        self.height = height
        self.settings = settings
        self.json = json
        self.color = color
        self.echo = echo
        self.now = now
        self.directory = directory
    }
}

extension ShellOptions {
    /// The columns human output fits to: `set width`, else the terminal's.
    public var lineWidth: Int { settings.width ?? width }

    /// Whether human output is coloured: at a terminal that takes colour, unless `set color off`.
    public var usesColor: Bool { color && settings.color && !json }
}
