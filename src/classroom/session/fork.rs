//! Forks, undone and redone: acting at an earlier step drops the later steps, which are kept (the
//! latest [`MAX_FORKS_KEPT`]) so that Ctrl+Z brings them back exactly and Ctrl+Y puts back what an
//! undo set aside.

use super::command::*;
use super::notice::*;
use super::state::*;
use super::MAX_FORKS_KEPT;
use crate::engine::*;

impl Session {
    pub(super) fn swap(&mut self, branch: Branch, undoing: bool) -> bool {
        let back = Steps { after: branch.from, steps: branch.actions.len() };
        match self.timeline.swap_branch(branch) {
            Ok(set_aside) => {
                let (at, n) = (self.timeline.position(), set_aside.actions.len());
                push_kept(if undoing { &mut self.redo } else { &mut self.undo }, set_aside);
                self.took_over |= self.lesson.is_some();
                self.seek(at);
                self.notice = Some(if undoing {
                    Notice::Undone { back, at, set_aside: n }
                } else {
                    Notice::Redone { back, at, set_aside: n }
                });
                true
            }
            // Not a branch of this history (the stacks are cleared whenever the history is
            // replaced, so this does not happen): nothing changes.
            Err(_) => {
                self.notice = Some(if undoing { Notice::NothingToUndo } else { Notice::NothingToRedo });
                false
            }
        }
    }
}

/// Pushes onto a stack of kept branches, forgetting the oldest past [`MAX_FORKS_KEPT`].
pub(super) fn push_kept(stack: &mut Vec<Branch>, branch: Branch) {
    stack.push(branch);
    if stack.len() > MAX_FORKS_KEPT {
        stack.remove(0);
    }
}
