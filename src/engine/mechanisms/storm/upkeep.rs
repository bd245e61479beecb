//! Storm's upkeep, as the cost table meters it ([`crate::engine::mechanisms::upkeep`]): every
//! `__ack_init` and `__ack_ack` a bolt or spout sends the acker, and every answer the acker sends
//! back, is a control message; the acker's table (about 20 bytes per pending tuple tree) is held in
//! memory. Its books are settled when no message is on its way to or from the acker and no spout
//! has a tuple pending or to retry.

use super::events::StormEvent;
use crate::engine::core::action::Event;
use crate::engine::core::sim::Sim;
use crate::engine::mechanisms::catalogue::carried::MechanismEvent;
use crate::engine::mechanisms::upkeep::{Upkeep, UpkeepMeter};

/// Bytes per pending tuple tree in Storm's acker (root id, XOR value, spout task: "about 20 bytes
/// per spout tuple").
pub const ACKER_BYTES_PER_TREE: u64 = 20;

/// Storm's row's upkeep.
pub static UPKEEP: Upkeep = Upkeep { observe, settled, awaits_timeout };

fn observe(m: &mut UpkeepMeter, sim: &Sim, events: &[Event]) {
    for e in events {
        if let Event::Mechanism(MechanismEvent::Storm(
            StormEvent::AckInitSent { .. } | StormEvent::AckSent { .. } | StormEvent::TreeCompleted { .. },
        )) = e
        {
            m.messages.acker += 1;
        }
    }
    let table = sim.storm().map_or(0, |s| s.acker.len() as u64 * ACKER_BYTES_PER_TREE);
    m.held = table;
    m.bytes.acker_table_peak = m.bytes.acker_table_peak.max(table);
}

fn settled(sim: &Sim) -> bool {
    sim.storm().is_none_or(|s| {
        s.to_acker.iter().all(|q| q.is_empty())
            && s.to_spout.iter().all(|q| q.is_empty())
            && s.spouts.iter().all(|p| p.pending.is_empty() && p.retry.is_empty())
    })
}

/// A spout's pending tuples time out on the clock (`topology.message.timeout.secs`).
fn awaits_timeout(sim: &Sim) -> bool {
    sim.storm().is_some_and(|s| s.spouts.iter().any(|p| !p.pending.is_empty()))
}
