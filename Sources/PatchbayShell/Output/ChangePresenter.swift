@_spi(Shell) import PatchbayCore

/// Matches the elements of arrays of objects by identity in the changes human output shows
/// (`set identity`, `id` unless set; see `PresentedChange`): a step's changes with the state the
/// step started from, which its store's history gives. The patches themselves stay positional.
struct ChangePresenter {
    /// The member that gives elements their identity.
    var key: String
    /// The state `store` had before its step `index`; `nil` when it is not known.
    var stateBefore: (_ store: String, _ index: Int) -> Value?

    /// The changes of step `index` of `store`, matched by identity; as they are when the state
    /// before the step is not known or they do not apply to it.
    func present(_ changes: [ValueChange], store: String, step index: Int) -> [PresentedChange] {
        guard Value.mayPresentByIdentity(changes, key: key), let before = stateBefore(store, index) else { return changes.map(PresentedChange.change) }
        var after = before
        for change in changes {
            do throws(PathError) { try after.apply(change) } catch { return changes.map(PresentedChange.change) }
        }
        return before.presented(changes, to: after, identity: key)
    }

    /// The changes from `old` to `new`, matched by identity.
    func present(_ changes: [ValueChange], from old: Value, to new: Value) -> [PresentedChange] {
        old.presented(changes, to: new, identity: key)
    }
}
