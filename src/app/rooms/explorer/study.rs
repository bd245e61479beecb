//! A study as the room keeps it: which tab, which study is explored (and whether it was), and the
//! handler composed in the lab (and whether it was classified). It is written as a short query
//! (`tab=lab&study=timers-abc&explored=1&h=wait.block.snapshot.0&classified=1`), kept in this
//! browser (`barrierscope.explorer`) and in the address bar after `#room=explorer&`, so a reload
//! or a link reopens it and runs its search again. Each of the room's two tabs is handed the
//! study with the room ([`TabProps`]).

use crate::engine::explorer::lab::Candidate;
use crate::engine::settings::handler::{AfterBarrier, Handler, OnFirstBarrier, OnLastBarrier};

pub const STORAGE_KEY: &str = "barrierscope.explorer";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Schedules,
    Lab,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Study {
    pub tab: Tab,
    /// A preset's id, or `main`.
    pub schedules: String,
    pub explored: bool,
    /// The lab's candidate: a composed handler, or per-task timers.
    pub lab: Candidate,
    pub classified: bool,
}

impl Default for Study {
    fn default() -> Self {
        Study {
            tab: Tab::Schedules,
            schedules: "timers-abc".into(),
            explored: false,
            lab: Candidate::Handler(Handler::ALIGNED),
            classified: false,
        }
    }
}

fn handler_code(c: &Candidate) -> String {
    let Candidate::Handler(h) = c else { return "timers".into() };
    format!(
        "{}.{}.{}.{}",
        match h.first {
            OnFirstBarrier::SnapshotNow => "now",
            OnFirstBarrier::Wait => "wait",
        },
        match h.after {
            AfterBarrier::Block => "block",
            AfterBarrier::Process => "process",
            AfterBarrier::Drop => "drop",
        },
        match h.last {
            OnLastBarrier::Snapshot => "snapshot",
            OnLastBarrier::ForwardOnly => "forward",
        },
        h.in_flight as u8
    )
}

fn handler_of(code: &str) -> Option<Candidate> {
    if code == "timers" {
        return Some(Candidate::Timers);
    }
    let p: Vec<&str> = code.split('.').collect();
    let [first, after, last, in_flight] = p.as_slice() else { return None };
    let h = Handler {
        first: match *first {
            "now" => OnFirstBarrier::SnapshotNow,
            "wait" => OnFirstBarrier::Wait,
            _ => return None,
        },
        after: match *after {
            "block" => AfterBarrier::Block,
            "process" => AfterBarrier::Process,
            "drop" => AfterBarrier::Drop,
            _ => return None,
        },
        last: match *last {
            "snapshot" => OnLastBarrier::Snapshot,
            "forward" => OnLastBarrier::ForwardOnly,
            _ => return None,
        },
        in_flight: match *in_flight {
            "0" => false,
            "1" => true,
            _ => return None,
        },
    };
    h.check().is_ok().then_some(Candidate::Handler(h))
}

impl Study {
    pub fn query(&self) -> String {
        format!(
            "tab={}&study={}&explored={}&h={}&classified={}",
            if self.tab == Tab::Lab { "lab" } else { "schedules" },
            self.schedules,
            self.explored as u8,
            handler_code(&self.lab),
            self.classified as u8
        )
    }

    /// Reads a query; what it does not name, or names wrongly, stays as the default (a study the
    /// room does not offer is the first preset).
    pub fn parse(q: &str) -> Study {
        let mut s = Study::default();
        for kv in q.split('&') {
            let Some((k, v)) = kv.split_once('=') else { continue };
            match k {
                "tab" => s.tab = if v == "lab" { Tab::Lab } else { Tab::Schedules },
                "study" if v == "main" || super::presets::preset(v).is_some() => s.schedules = v.into(),
                "explored" => s.explored = v == "1",
                "h" => s.lab = handler_of(v).unwrap_or(s.lab),
                "classified" => s.classified = v == "1",
                _ => {}
            }
        }
        s
    }
}

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The study in the link (`#room=explorer&…`), else the one kept in this browser, else the first.
pub fn initial() -> Study {
    let hash = window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    if let Some(rest) = hash.strip_prefix("#room=explorer&") {
        return Study::parse(rest);
    }
    window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
        .map(|q| Study::parse(&q))
        .unwrap_or_default()
}

/// Keeps the study in this browser and in the address bar (no history entry); called only while
/// the room is open.
pub fn keep(s: &Study) {
    let Some(w) = window() else { return };
    let q = s.query();
    if let Ok(Some(storage)) = w.local_storage() {
        let _ = storage.set_item(STORAGE_KEY, &q);
    }
    crate::app::address_bar::put(&format!("room=explorer&{q}"));
}

/// What each of the room's two tabs is handed: the room, the study, and how to change it.
#[derive(yew::Properties, PartialEq, Clone)]
pub struct TabProps {
    pub room: crate::app::rooms::RoomProps,
    pub study: Study,
    pub choose: yew::Callback<Study>,
}
