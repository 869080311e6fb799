//! njudge's words a dipjudge game reads but does otherwise, as a type: which role may send
//! each, whether a game already does what it asks, and its echo. Read by
//! [`super::njudge`]; answered by `bulletin::settings::njudge_word`.

/// An njudge word dipjudge reads but does otherwise: the reply says what it does instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NjudgeWord {
    // The master's (njudge's `mod/aft`).
    AutoStart,
    ManualStart,
    /// `SET PRFBOTH|PRFLIST|PRFRAND`: how powers are assigned.
    Assignment(Assignment),
    AutoProcess,
    ManualProcess,
    AutoCreate,
    NoResume,
    StrictGrace,
    StrictWait,
    Access,
    AllowPlayer,
    DenyPlayer,
    Approved,
    Level,
    Rated(bool),
    Unmoderated,
    MinorPress(bool),
    BlankPress(bool),
    /// `SET FAKE`, `SET PARTIAL FAKES BROADCAST`, `SET PARTIAL MAY BE FAKED` (true), `SET NO
    /// FAKE` (false).
    Fake(bool),
    GracePress(bool),
    LatePress(bool),
    MustOrder,
    PostalPress(bool),
    TouchPress,
    WatchAllPress(bool),
    Concessions(bool),
    Dias(bool),
    LateCount(bool),
    Secret,
    Show(bool),
    Proxy,
    StrictConvoy,
    Gunboat,
    /// A board's option: `SET ANY CENTRES`, `SET BLANK BOARD`, `SET TRANSFORM …`.
    BoardOption(&'static str),
    // Anyone's (njudge's `any/…`).
    /// `SIGNON ? password`: the next game forming.
    SignonNext,
    Diary,
    /// `GET file` / `SEND ME file` for a file dipjudge does not keep.
    File,
    /// `MAP *` over a pasted listing.
    MapPasted,
    BecomeMaster,
    Moderated,
    /// An observer's `SET [NO|NORMAL] BROADCAST`.
    Broadcast(bool),
    /// `SET ADDRESS a b`: two addresses for one seat.
    TwoAddresses,
    /// `SET CONC` without the power.
    ConcedeWhom,
    /// `PHASE …` for a phase after the current one: the orders after it are not read.
    LaterPhase,
}

/// njudge's ways of assigning powers (`SET PRFBOTH|PRFLIST|PRFRAND`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Assignment {
    Both,
    List,
    Random,
}

impl NjudgeWord {
    /// Whether only the master may send it (njudge's `mod/…`).
    pub fn by_master(self) -> bool {
        !matches!(
            self,
            NjudgeWord::SignonNext
                | NjudgeWord::Diary
                | NjudgeWord::File
                | NjudgeWord::MapPasted
                | NjudgeWord::BecomeMaster
                | NjudgeWord::Moderated
                | NjudgeWord::Broadcast(_)
                | NjudgeWord::TwoAddresses
                | NjudgeWord::ConcedeWhom
                | NjudgeWord::LaterPhase
        )
    }

    /// Whether a dipjudge game already does what the word asks (the reply is `OK` and the
    /// sentence says so); otherwise the line is refused, nothing changed, and the sentence
    /// says what dipjudge does instead.
    pub fn as_asked(self) -> bool {
        matches!(
            self,
            NjudgeWord::AutoStart
                | NjudgeWord::Assignment(Assignment::Both)
                | NjudgeWord::AutoProcess
                | NjudgeWord::NoResume
                | NjudgeWord::Rated(true)
                | NjudgeWord::Moderated
                | NjudgeWord::MinorPress(true)
                | NjudgeWord::BlankPress(false)
                | NjudgeWord::Fake(false)
                | NjudgeWord::GracePress(true)
                | NjudgeWord::LatePress(true)
                | NjudgeWord::PostalPress(false)
                | NjudgeWord::WatchAllPress(false)
                | NjudgeWord::Concessions(true)
                | NjudgeWord::Dias(false)
                | NjudgeWord::LateCount(false)
                | NjudgeWord::Show(true)
        )
    }

    /// The word as echoed (njudge's spelling).
    pub fn render(self) -> String {
        let no = |on: bool| if on { "" } else { "NO " };
        match self {
            NjudgeWord::AutoStart => "SET AUTO START".into(),
            NjudgeWord::ManualStart => "SET MANUAL START".into(),
            NjudgeWord::Assignment(Assignment::Both) => "SET PRFBOTH".into(),
            NjudgeWord::Assignment(Assignment::List) => "SET PRFLIST".into(),
            NjudgeWord::Assignment(Assignment::Random) => "SET PRFRAND".into(),
            NjudgeWord::AutoProcess => "SET AUTO PROCESS".into(),
            NjudgeWord::ManualProcess => "SET MANUAL PROCESS".into(),
            NjudgeWord::AutoCreate => "SET AUTO CREATE".into(),
            NjudgeWord::NoResume => "SET NO RESUME".into(),
            NjudgeWord::StrictGrace => "SET STRICT GRACE".into(),
            NjudgeWord::StrictWait => "SET STRICT WAIT".into(),
            NjudgeWord::Access => "SET ACCESS".into(),
            NjudgeWord::AllowPlayer => "SET ALLOW PLAYER".into(),
            NjudgeWord::DenyPlayer => "SET DENY PLAYER".into(),
            NjudgeWord::Approved => "SET APPROVED".into(),
            NjudgeWord::Level => "SET LEVEL".into(),
            NjudgeWord::Rated(on) => format!("SET {}RATED", if on { "" } else { "UN" }),
            NjudgeWord::Unmoderated => "SET UNMODERATED".into(),
            NjudgeWord::MinorPress(on) => format!("SET {}MINOR PRESS", no(on)),
            NjudgeWord::BlankPress(on) => format!("SET {}BLANK PRESS", no(on)),
            NjudgeWord::Fake(on) => format!("SET {}FAKE", no(on)),
            NjudgeWord::GracePress(on) => format!("SET {}GRACE PRESS", no(on)),
            NjudgeWord::LatePress(on) => format!("SET {}LATE PRESS", no(on)),
            NjudgeWord::MustOrder => "SET MUST ORDER".into(),
            NjudgeWord::PostalPress(on) => format!("SET {}POSTAL PRESS", no(on)),
            NjudgeWord::TouchPress => "SET TOUCH PRESS".into(),
            NjudgeWord::WatchAllPress(on) => format!("SET {}WATCH ALL PRESS", no(on)),
            NjudgeWord::Concessions(on) => format!("SET {}CONCESSIONS", no(on)),
            NjudgeWord::Dias(on) => format!("SET {}DIAS", no(on)),
            NjudgeWord::LateCount(on) => format!("SET {}LATE COUNT", no(on)),
            NjudgeWord::Secret => "SET SECRET".into(),
            NjudgeWord::Show(on) => format!("SET {}SHOW", no(on)),
            NjudgeWord::Proxy => "SET PROXY".into(),
            NjudgeWord::StrictConvoy => "SET STRICT CONVOY".into(),
            NjudgeWord::Gunboat => "SET GUNBOAT".into(),
            NjudgeWord::BoardOption(word) => format!("SET {word}"),
            NjudgeWord::SignonNext => "SIGNON ?".into(),
            NjudgeWord::Diary => "DIARY".into(),
            NjudgeWord::File => "GET".into(),
            NjudgeWord::MapPasted => "MAP *".into(),
            NjudgeWord::BecomeMaster => "BECOME MASTER".into(),
            NjudgeWord::Moderated => "SET MODERATED".into(),
            NjudgeWord::Broadcast(on) => format!("SET {}BROADCAST", no(on)),
            NjudgeWord::TwoAddresses => "SET ADDRESS".into(),
            NjudgeWord::ConcedeWhom => "SET CONCEDE".into(),
            NjudgeWord::LaterPhase => "PHASE".into(),
        }
    }
}
