/// The largest input the shell accepts, so that no input can exhaust memory or time.
@_spi(Shell)
public enum InputLimits {
    /// The longest line, in bytes. Longer lines are refused with an error.
    public static let maxLineBytes = 1 << 20
    /// The largest Redux DevTools file `import devtools` reads, in bytes: the file is read
    /// whole and decoded into values, which take many times its size in memory.
    public static let maxDevToolsFileBytes = 16 << 20
    /// How deep `load` may nest.
    public static let maxLoadDepth = 16
}
