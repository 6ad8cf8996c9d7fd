/// The store that `use STORE` selected stands for a STORE left out.
extension Command {
    /// The command with `store` in place of a STORE that was left out, for the commands whose
    /// STORE is optional (the list `help use` gives). A command that names its store keeps it.
    /// `range` is what errors about the store point at.
    func selecting(_ store: String, at range: Range<Int>) -> Command {
        let name = Name(text: store, range: range)
        switch self {
        case .store(let command):
            switch command {
            case .dispatch(nil, let type, let payload): return .store(.dispatch(store: name, type: type, payload: payload))
            case .state(nil, let path, let pathStart, let tree): return .store(.state(store: name, path: path, pathStart: pathStart, tree: tree))
            case .listReducers(nil): return .store(.listReducers(name))
            case .listMiddleware(nil): return .store(.listMiddleware(name))
            default: return self
            }
        case .timeTravel(let command):
            switch command {
            case .history(nil, let filter): return .timeTravel(.history(store: name, filter: filter))
            case .chart(nil, let request): return .timeTravel(.chart(store: name, request: request))
            case .rewrite(let rewrite, nil, let force): return .timeTravel(.rewrite(rewrite, store: name, force: force))
            case .recompute(nil): return .timeTravel(.recompute(store: name))
            case .jump(nil, let target, let range): return .timeTravel(.jump(store: name, to: target, range: range))
            case .diff(nil, let from, let to, let path): return .timeTravel(.diff(store: name, from: from, to: to, path: path))
            case .skip(nil, let index, let range, let skipped):
                return .timeTravel(.skip(store: name, index: index, range: range, skipped: skipped))
            case .branchDiff(nil, let from, let to, let path): return .timeTravel(.branchDiff(store: name, from: from, to: to, path: path))
            case .blame(nil, let path, let pathRange, let bound):
                return .timeTravel(.blame(store: name, path: path, pathRange: pathRange, bound: bound))
            case .find(nil, let condition, let bound): return .timeTravel(.find(store: name, condition: condition, bound: bound))
            case .branches(nil): return .timeTravel(.branches(store: name))
            case .checkout(nil, let branch): return .timeTravel(.checkout(store: name, branch: branch))
            default: return self
            }
        case .session(let command):
            switch command {
            case .breakpoint(nil, let condition): return .session(.breakpoint(store: name, condition: condition))
            case .importDevTools(let path, let range, nil, let force):
                return .session(.importDevTools(path: path, range: range, store: name, force: force))
            default: return self
            }
        default:
            return self
        }
    }
}
