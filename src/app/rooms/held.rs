//! A room's session in the page: held once for the room's life, changed in place by each command
//! ([`RoomSession::handle`]), and drawn again when the command changed it. What a session holds and
//! how a command changes it is the classroom's (`classroom::batch_room`, `classroom::compare_room`);
//! a room's Yew components only read it and dispatch commands.

use std::cell::{Ref, RefCell};
use std::rc::Rc;

use yew::prelude::*;

use crate::classroom::room_session::RoomSession;

/// The session a room's reducer holds.
pub struct Held<S>(Rc<RefCell<S>>);

impl<S> Held<S> {
    pub fn new(session: S) -> Held<S> {
        Held(Rc::new(RefCell::new(session)))
    }

    /// The session as it stands.
    pub fn get(&self) -> Ref<'_, S> {
        self.0.borrow()
    }
}

impl<S: RoomSession + 'static> Reducible for Held<S> {
    type Action = S::Command;

    fn reduce(self: Rc<Self>, command: S::Command) -> Rc<Self> {
        let changed = self.0.borrow_mut().handle(command);
        if changed {
            Rc::new(Held(self.0.clone()))
        } else {
            self
        }
    }
}

/// How a room's parts send its session a command.
pub type Dispatcher<S> = UseReducerDispatcher<Held<S>>;

/// A room's session as its component holds it: read it with [`Held::get`], send it commands.
pub type Handle<S> = UseReducerHandle<Held<S>>;
