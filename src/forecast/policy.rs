//! What a fighter does with an action: its side's policy (docs/rules.md, "The encounter
//! forecast"). Every policy but `random` ranks by the exact expected damage of each ability
//! against each foe as the forecast starts ([`super::prepare::Prepared::expect`]).
//!
//! - `focus`: the target is the standing foe it can take down soonest (fewest uses of its best
//!   ability against that foe to take the foe's HP and vigor); the ability is the one that
//!   begins the best expected damage this turn (a 2-action ability, or two different 1-action
//!   ones) against that target, an area's extra foes the ones it does most to.
//! - `threat`: as `focus`, but the target is the standing foe expected to deal the most damage
//!   a round.
//! - `rescue`: as `focus`, but a player character first rescues a defeated, not fallen, player
//!   character ally (once a turn).
//! - `random`: any usable ability (or a rescue) against any target it can aim at, uniformly.
//!
//! An ability that deals no damage (a status alone, on foes, allies or the user) is used only
//! when no damaging one is usable, except by `random`.

use super::input::{Policy, MAX_ABILITIES, MAX_FIGHTERS};
use super::play::{Choice, Play};
use super::prepare::{catches, Aim};
use crate::combat::Side;

impl Play<'_> {
    /// The choice of fighter `u` with `left` actions, having used `used` this turn and rescued
    /// or not; `None` when it has nothing it can do.
    pub(super) fn choose(
        &mut self,
        u: usize,
        left: u8,
        used: &[usize],
        rescued: bool,
    ) -> Option<Choice> {
        let policy = self.p.request.options.policy.of(self.units[u].side);
        if policy == Policy::Random {
            return self.choose_random(u, left, used, rescued);
        }
        if policy == Policy::Rescue && !rescued {
            if let Some(ally) = self.rescuable(u).next() {
                return Some(Choice::Rescue(ally));
            }
        }
        // a turn's choice is made often (every action of every fight): its lists live on the
        // stack, and each ability's value is worked out once
        let mut foes = Few::new();
        foes.extend(self.foes_of(u));
        let foes = foes.as_slice();
        if foes.is_empty() {
            return None;
        }
        let mut usable = Few::new();
        usable.extend((0..self.p.abilities[u].len()).filter(|&a| self.usable(u, a, left, used)));
        let usable = usable.as_slice();
        let mut damaging = Few::new();
        damaging.extend(usable.iter().copied().filter(|&a| {
            self.p.abilities[u][a].aim == Aim::Foes
                && foes.iter().any(|&t| self.p.expect[u][a][t].is_positive())
        }));
        let damaging = damaging.as_slice();
        if damaging.is_empty() {
            return self.without_damage(u, usable, foes);
        }
        let target = match policy {
            Policy::Threat => *foes
                .iter()
                .max_by(|&&x, &&y| {
                    // the first of equals: max_by keeps the last, so compare the index back
                    self.p.per_round[x]
                        .value
                        .total_cmp(&self.p.per_round[y].value)
                        .then(y.cmp(&x))
                })
                .unwrap_or(&foes[0]),
            _ => self.soonest(u, damaging, foes),
        };
        // the value of each damaging ability against `target` and the area's best others (the
        // standing foes in the order of what the ability does to them, most first)
        let value = |a: usize| -> f64 {
            let spec = &self.p.abilities[u][a].spec;
            let more = catches(self.p, spec) - 1;
            let here = self.p.expect[u][a][target].value;
            if more == 0 {
                return here;
            }
            here + self.p.ranked[u][a]
                .iter()
                .filter(|&&t| t != target && self.units[t].standing())
                .take(more)
                .map(|&t| self.p.expect[u][a][t].value)
                .sum::<f64>()
        };
        let mut values = [0.0f64; FEW];
        for &a in damaging {
            values[a] = value(a);
        }
        let cost = |a: usize| self.p.abilities[u][a].spec.actions.cost().unwrap_or(2);
        let mut best: Option<(f64, usize)> = None;
        for &a in damaging {
            let mut v = values[a];
            if cost(a) == 1 && left >= 2 {
                // the best different 1-action ability to follow it
                v += damaging
                    .iter()
                    .filter(|&&b| b != a && cost(b) == 1)
                    .map(|&b| values[b])
                    .fold(0.0, f64::max);
            }
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, a));
            }
        }
        let (_, ability) = best?;
        let targets = self.aim_at(u, ability, target);
        Some(Choice::Use { ability, targets })
    }

    /// The standing foe `u` can take down soonest: the fewest uses of its best damaging ability
    /// against it to take its HP and vigor (the first of equals).
    fn soonest(&self, u: usize, damaging: &[usize], foes: &[usize]) -> usize {
        let mut best: Option<(f64, usize)> = None;
        for &t in foes {
            let most = damaging
                .iter()
                .map(|&a| self.p.expect[u][a][t].value)
                .fold(0.0, f64::max);
            let health = (self.units[t].t.hp + self.units[t].t.vigor) as f64;
            let uses = if most > 0.0 {
                health / most
            } else {
                f64::INFINITY
            };
            if best.is_none_or(|(b, _)| uses < b) {
                best = Some((uses, t));
            }
        }
        best.map_or(foes[0], |(_, t)| t)
    }

    /// The targets of `u`'s ability `a` aimed at `target`: it, then as many more standing foes as
    /// an area catches, the ones it does most to first (the first of equals).
    fn aim_at(&self, u: usize, a: usize, target: usize) -> Vec<usize> {
        let n = catches(self.p, &self.p.abilities[u][a].spec);
        let mut targets = Vec::with_capacity(n);
        targets.push(target);
        targets.extend(
            self.p.ranked[u][a]
                .iter()
                .copied()
                .filter(|&t| t != target && self.units[t].standing())
                .take(n - 1),
        );
        targets
    }

    /// With no damaging ability usable: the first usable ability that puts a status somewhere
    /// (on the first foe, on the ally with the fewest HP, or on the user).
    fn without_damage(&self, u: usize, usable: &[usize], foes: &[usize]) -> Option<Choice> {
        for &a in usable {
            let targets = match self.p.abilities[u][a].aim {
                Aim::Foes => self.aim_at(u, a, foes[0]),
                Aim::Allies => {
                    let ally = self
                        .allies_of(u)
                        .min_by_key(|&t| (self.units[t].t.hp, t))
                        .unwrap_or(u);
                    vec![ally]
                }
                Aim::User => Vec::new(),
                Aim::Unplayed => continue,
            };
            return Some(Choice::Use {
                ability: a,
                targets,
            });
        }
        None
    }

    /// The defeated, not fallen, player characters `u` may rescue (a player character rescues
    /// its own side's).
    fn rescuable(&self, u: usize) -> impl Iterator<Item = usize> + '_ {
        let me = &self.p.request.fighters[u];
        let can = me.is_player_character && me.side == Side::Party;
        (0..self.units.len()).filter(move |&t| {
            can && t != u
                && self.units[t].side == Side::Party
                && self.p.request.fighters[t].is_player_character
                && self.units[t].down
                && !self.units[t].t.fallen
                && self.units[t].t.wounds < 4
        })
    }

    /// `random`: every usable (ability, targets) and rescue, one of them uniformly.
    fn choose_random(
        &mut self,
        u: usize,
        left: u8,
        used: &[usize],
        rescued: bool,
    ) -> Option<Choice> {
        let foes: Vec<usize> = self.foes_of(u).collect();
        if foes.is_empty() {
            return None;
        }
        let mut options: Vec<Choice> = Vec::new();
        if !rescued {
            options.extend(self.rescuable(u).map(Choice::Rescue));
        }
        for a in 0..self.p.abilities[u].len() {
            if !self.usable(u, a, left, used) {
                continue;
            }
            match self.p.abilities[u][a].aim {
                Aim::Foes => {
                    for &t in &foes {
                        options.push(Choice::Use {
                            ability: a,
                            targets: self.aim_at(u, a, t),
                        });
                    }
                }
                Aim::Allies => {
                    for t in self.allies_of(u).collect::<Vec<_>>() {
                        options.push(Choice::Use {
                            ability: a,
                            targets: vec![t],
                        });
                    }
                }
                Aim::User => options.push(Choice::Use {
                    ability: a,
                    targets: Vec::new(),
                }),
                Aim::Unplayed => {}
            }
        }
        if options.is_empty() {
            return None;
        }
        let i = self.rng.face(options.len() as u32) as usize - 1;
        Some(options.swap_remove(i))
    }
}

/// As many indices as a fight can hold, fighters or a fighter's abilities ([`MAX_FIGHTERS`]; at
/// most [`MAX_ABILITIES`] and the two basic attacks), in a list on the stack.
const FEW: usize = 64;
const _: () = assert!(MAX_FIGHTERS <= FEW && MAX_ABILITIES + 2 <= FEW);

struct Few {
    items: [usize; FEW],
    len: usize,
}

impl Few {
    fn new() -> Self {
        Self {
            items: [0; FEW],
            len: 0,
        }
    }
    fn extend(&mut self, it: impl Iterator<Item = usize>) {
        for i in it {
            self.items[self.len] = i;
            self.len += 1;
        }
    }
    fn as_slice(&self) -> &[usize] {
        &self.items[..self.len]
    }
}
