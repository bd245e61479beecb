//! What the browser keeps of the quizzes: the set in progress (its seed and the answers so far, so
//! a learner who opens a question on the canvas comes back to the same place) and the scores of
//! finished sets. Plain text, read defensively: a stored value that is not what this file writes
//! (another version, a hand edit, a full disk) is ignored entry by entry, never an error, so bad
//! stored data cannot break the page. The set's seed in a link is read here too, with a reason
//! when it is not one.

/// Finished sets kept, the newest last.
pub const HISTORY_KEPT: usize = 20;

/// The largest set seed a link or the field takes (nine digits).
pub const MAX_SET: u64 = 999_999_999;

/// A set in progress: `answers[i]` is whether question `i` was answered right; the next question
/// is `answers.len()`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    pub set: u64,
    pub answers: Vec<bool>,
}

impl Progress {
    /// `"set:rwr"` (r right, w wrong).
    pub fn to_text(&self) -> String {
        let marks: String = self.answers.iter().map(|&a| if a { 'r' } else { 'w' }).collect();
        format!("{}:{marks}", self.set)
    }
    /// None for anything [`Progress::to_text`] does not write, or more answers than a set has.
    pub fn parse(s: &str) -> Option<Progress> {
        let (set, marks) = s.split_once(':')?;
        let set = parse_set(set).ok()?;
        if marks.len() > super::SET_SIZE {
            return None;
        }
        let answers = marks
            .chars()
            .map(|c| match c {
                'r' => Some(true),
                'w' => Some(false),
                _ => None,
            })
            .collect::<Option<Vec<bool>>>()?;
        Some(Progress { set, answers })
    }
}

/// One finished set: its seed and score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Past {
    pub set: u64,
    pub right: usize,
    pub of: usize,
}

/// `"set:right/of"` entries separated by spaces.
pub fn history_text(past: &[Past]) -> String {
    let from = past.len().saturating_sub(HISTORY_KEPT);
    past[from..].iter().map(|p| format!("{}:{}/{}", p.set, p.right, p.of)).collect::<Vec<_>>().join(" ")
}

/// The entries of [`history_text`] that read back; the rest are dropped.
pub fn parse_history(s: &str) -> Vec<Past> {
    let mut v: Vec<Past> = s
        .split_whitespace()
        .filter_map(|e| {
            let (set, score) = e.split_once(':')?;
            let (right, of) = score.split_once('/')?;
            let (right, of): (usize, usize) = (right.parse().ok()?, of.parse().ok()?);
            (of <= super::SET_SIZE && right <= of).then_some(Past { set: parse_set(set).ok()?, right, of })
        })
        .collect();
    let from = v.len().saturating_sub(HISTORY_KEPT);
    v.drain(..from);
    v
}

/// Why a set seed was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetError {
    Empty,
    NotANumber(String),
    TooLarge(String),
}

impl SetError {
    pub fn message(&self, l: crate::engine::Lang) -> String {
        use crate::engine::Lang;
        match (self, l) {
            (SetError::Empty, Lang::En) => "Type the set's number: a whole number from 0 to 999999999.".into(),
            (SetError::Empty, Lang::Zh) => "请输入题组编号：0 到 999999999 之间的整数。".into(),
            (SetError::NotANumber(s), Lang::En) => {
                format!("“{s}” is not a set number: use digits only, from 0 to 999999999.")
            }
            (SetError::NotANumber(s), Lang::Zh) => format!("“{s}”不是题组编号：只能用数字，0 到 999999999。"),
            (SetError::TooLarge(s), Lang::En) => format!("Set {s} is too large: the largest is 999999999."),
            (SetError::TooLarge(s), Lang::Zh) => format!("题组 {s} 太大：最大是 999999999。"),
        }
    }
}

/// A set seed as a link or the field gives it: digits only, at most [`MAX_SET`].
pub fn parse_set(s: &str) -> Result<u64, SetError> {
    let s = s.trim();
    let shown: String = s.chars().take(24).collect();
    if s.is_empty() {
        return Err(SetError::Empty);
    }
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(SetError::NotANumber(shown));
    }
    match s.trim_start_matches('0') {
        t if t.len() > 9 => Err(SetError::TooLarge(shown)),
        "" => Ok(0),
        t => t.parse().map_err(|_| SetError::TooLarge(shown)).and_then(|n: u64| {
            if n > MAX_SET {
                Err(SetError::TooLarge(s.to_string()))
            } else {
                Ok(n)
            }
        }),
    }
}

/// The set named in a room link's own part (`set=N` after `#room=quiz&`): None when it names
/// none, else the seed or why it is not one.
pub fn set_in_link(rest: &str) -> Option<Result<u64, SetError>> {
    rest.split('&').find_map(|kv| kv.strip_prefix("set=")).map(parse_set)
}
