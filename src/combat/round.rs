//! Rounds: "The next round starts with the side opposite the one that took the last turn", and
//! "+1 Party Resolve at the start of every round" (Rules Reference, Resolve). The slow phase
//! follows "the same order as during regular turns" (glossary, Slow Turn): it opens with the
//! side that opened the round.

use super::fight::{turns_for, Fight, Side};
use super::log::broken;
use super::{refuse, Effect};
use crate::error::Result;

/// What starting a round overwrote, so undo can put it back: the two slots, and the counters of
/// the combatants that did not end the round as expected (a combatant that is not defeated ends
/// it with all its turns taken and none waiting; a defeated one, with none taken).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(from = "super::codec::ResetTuple", into = "super::codec::ResetTuple")]
pub struct Reset {
    pub regular_was: Side,
    pub slow_was: Side,
    /// `(number, taken, slow)` of the combatants whose counters were not the expected ones.
    pub odd: Vec<(u32, u32, u32)>,
}

/// The counters a combatant is expected to end a round with (see [`Reset`]).
fn expected(c: &super::Combatant, pcs: u32) -> (u32, u32) {
    if c.defeated {
        (0, 0)
    } else {
        (turns_for(c, pcs), 0)
    }
}

impl Fight {
    /// Starts a new round if no turn is open, nobody has turns left, and someone standing would
    /// have a turn in it. Returns what it overwrote.
    pub(crate) fn maybe_new_round(&mut self, effects: &mut Vec<Effect>) -> Result<Option<Reset>> {
        let pcs = self.player_characters();
        let anyone = self
            .combatants
            .values()
            .any(|c| !c.defeated && turns_for(c, pcs) > 0);
        if self.current.is_some() || !anyone || self.next().is_some() {
            return Ok(None);
        }
        let (Some(round), Some(resolve)) =
            (self.round.checked_add(1), self.party_resolve.checked_add(1))
        else {
            return refuse("the combat cannot go on: its round or party resolve is at the limit");
        };
        let mut odd = Vec::new();
        for (n, c) in self.combatants.iter_mut() {
            if (c.taken, c.slow) != expected(c, pcs) {
                odd.push((*n, c.taken, c.slow));
            }
            c.taken = 0;
            c.slow = 0;
        }
        let reset = Reset {
            regular_was: self.regular_side,
            slow_was: self.slow_side,
            odd,
        };
        self.round = round;
        self.party_resolve = resolve;
        let first = self.last_side.map_or(Side::Party, Side::other);
        self.regular_side = first;
        self.slow_side = first;
        effects.push(Effect::RoundStarted { round });
        effects.push(Effect::ResolveChanged {
            party_resolve: resolve,
        });
        Ok(Some(reset))
    }

    /// Undoes [`Fight::maybe_new_round`], given the roster as it was right after it.
    pub(crate) fn unreset(&mut self, reset: &Reset) -> Result<()> {
        let (Some(round), Some(resolve)) =
            (self.round.checked_sub(1), self.party_resolve.checked_sub(1))
        else {
            return broken("a round start to undo in round 0");
        };
        let pcs = self.player_characters();
        for c in self.combatants.values_mut() {
            (c.taken, c.slow) = expected(c, pcs);
        }
        for &(n, taken, slow) in &reset.odd {
            let Some(c) = self.combatants.get_mut(&n) else {
                return broken(format!(
                    "combatant {n} of a round start is not in the fight"
                ));
            };
            (c.taken, c.slow) = (taken, slow);
        }
        self.round = round;
        self.party_resolve = resolve;
        self.regular_side = reset.regular_was;
        self.slow_side = reset.slow_was;
        Ok(())
    }
}
