//! The master's commands, dispatched: the session proves the mail speaks as the master,
//! then each command goes to its family's unit in `judge::commands` (processing and
//! rollback, deadlines and the schedule, seats, settings), which calls one `Game`
//! transition and picks who is told and in which words.

use crate::command::MasterCommand;
use crate::game::Sender;

use super::super::refusal::{Refusal, SessionError};
use super::{Done, Session, Verdict};

impl Session<'_, '_> {
    pub(super) fn master(&mut self, cmd: &MasterCommand) -> Verdict {
        if self.who != Some(Sender::Master) {
            return Err(Refusal::NotMaster.into());
        }
        if self.game.is_none() || self.variant.is_none() {
            return Err(Refusal::NotSignedOn.into());
        }
        let more = self.master_command(cmd)?;
        // A master's command, even one that changes nothing (PREVIEW, BECOME), has the
        // judge look again at whether every order is in when the mail is done.
        if let Some(g) = self.game.as_mut() {
            g.mark_changed();
        }
        Done::with_more(cmd.render(), more)
    }

    /// The master's command, done: the lines its reply adds after `OK`.
    fn master_command(&mut self, cmd: &MasterCommand) -> Result<Vec<String>, SessionError> {
        use MasterCommand as M;
        match cmd {
            // Processing and rollback (`commands::processing`).
            M::Process { phase } => self.process(*phase),
            M::ProcessNow => self.process_now(),
            M::Preview => self.preview(),
            M::Terminate => self.terminate(),
            M::Declare(d) => self.declare(d),
            M::Rollback { turn } => self.roll_back(turn.as_ref()),
            M::Unstart => self.unstart(),
            // Deadlines and the schedule (`commands::schedule`).
            M::Pause => self.pause(),
            M::Resume => self.resume(),
            M::SetDeadline { date } => self.set_deadline(*date),
            M::SetGrace { date } => self.set_grace(*date),
            M::SetStart { date } => self.set_start(*date),
            M::SetSchedule { class, change } => self.set_schedule(*class, change),
            M::SetZone { zone } => self.set_zone(zone),
            // Seats (`commands::seats`).
            M::Become { power } => self.become_power(*power),
            M::Eject { who } => self.eject(who),
            M::ForceBegin => self.force_begin(),
            M::Approve { power } => self.approve(*power),
            M::Reject { power } => self.reject(*power),
            M::Promote { address } => self.promote(address),
            M::SetInvite { addresses, invite } => self.invite(addresses, *invite),
            // Settings (`commands::settings`).
            M::SetVariant { name } => self.set_variant(name),
            M::SetPlayers { count } => self.set_players(*count),
            M::SetJoinPassword { password } => self.set_join_password(password.as_deref()),
            M::SetNmr => self.set(|g| g.set_nmr(true)),
            M::SetNoNmr => self.set(|g| g.set_nmr(false)),
            M::SetPress(level) => self.set(|g| g.set_press(*level)),
            M::SetPartial => self.set(|g| g.set_partial(true)),
            M::SetNoPartial => self.set(|g| g.set_partial(false)),
            M::SetAllPress => self.set(|g| g.set_master_reads_all_press(true)),
            M::SetNoAllPress => self.set(|g| g.set_master_reads_all_press(false)),
            // njudge's SET OBSERVER: what observers may send; SET WATCH: what they read.
            M::SetObserver(o) => self.set(|g| g.set_observer_press(*o)),
            M::SetWatch(o) => self.set(|g| g.set_watch(*o)),
            M::SetQuiet { on } => self.set(|g| g.set_quiet(*on)),
            M::SetTakeoverHistory(on) => self.set(|g| g.set_takeover_history(*on)),
            M::SetApproval(on) => self.set(|g| g.set_approval(*on)),
            M::SetAbandon { count } => self.set(|g| g.set_abandon_after(*count)),
            M::SetComment { text } => self.set(|g| g.set_comment(text)),
            M::SetListed { listed } => self.set(|g| g.set_listed(*listed)),
            // The entry gates (issue 31): read at each join and takeover from now on.
            M::SetDedication { least } => {
                self.set(|g| g.set_gate(crate::game::Gate::Dedication(*least)))
            }
            M::SetOnTimeRatio { least } => self.set_on_time_gate(*least),
            M::SetResignationRatio { most } => self.set_resignation_gate(*most),
            M::SetTakeover { hours } => self.try_set(|g| g.set_takeover_hours(*hours)),
            M::SetCentres { count } => self.try_set(|g| g.set_centres_to_win(*count)),
            M::SetAnonymous { on } => self.try_set(|g| g.set_anonymous(*on)),
            M::SetReveal { on } => self.try_set(|g| g.set_reveal(*on)),
            M::SetAddresses { shown } => self.try_set(|g| g.set_addresses_shown(*shown)),
            M::SetMaxAbsence { days } => self.try_set(|g| g.set_max_absence(*days)),
            // njudge's words a dipjudge game does otherwise: what it does instead.
            M::Njudge(w) => self.njudge_setting(*w),
        }
    }
}
