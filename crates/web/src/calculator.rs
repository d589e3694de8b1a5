//! The clickable MK-61: calculators kept on the server and run by the
//! emulator (crate ajedrecista-mk61), one key or switch move per request,
//! so that a person can play the 1987 chess programs key by key
//! (docs/web.md, "Calculators").

use std::sync::Arc;

use ajedrecista_automata::Place;
use ajedrecista_automata::calculator_game::{
    CalculatorGame, ChessProgram, GAME_RUN_LIMIT, KeyedProgram, SetupError, Shown, ShownView,
};
use ajedrecista_mk61::{AngleUnit, Calculator, Display, Key};
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Json, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiJson};
use crate::routes::{ApiPath, blocking};
use crate::server::RequestScope;
use crate::store::{GameId, GameStore, Limits, lock};
use crate::work::WorkPool;

/// One calculator and the position of its Р-ГРД-Г switch (the emulator
/// takes the switch but does not report it).
#[derive(Clone)]
pub struct Mk61 {
    calculator: Calculator,
    switch: AngleUnit,
    /// The chess program keyed in, if any, with the keys typed for it.
    program: Option<KeyedProgram>,
}

type Calculators = Arc<GameStore<Mk61>>;

/// `POST /api/calculators`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewCalculator {
    /// `queen` or `rook`: the program keyed in with its presets and start
    /// keys, as the chess games begin; none: a calculator just switched on.
    /// Any other name is refused with the names there are.
    pub program: Option<ChessProgram>,
}

/// `POST /api/calculators/{id}/press`: a key, or the switch moved.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Input {
    pub key: Option<String>,
    pub switch: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct CalculatorView {
    pub id: String,
    /// The indicator in the traces' notation (` 77.         `).
    pub display: String,
    /// The twelve places: mantissa sign, eight digits, exponent sign, two digits.
    pub places: Vec<Place>,
    /// `Р`, `ГРД` or `Г`.
    pub switch: &'static str,
    /// False if the last key started a program that had not stopped within
    /// the run limit (it is stopped there; С/П stops a real one).
    pub stopped: bool,
    /// With a chess program keyed in: what the display means to it (the
    /// automata crate reads it, as in a game).
    pub shown: Option<ShownView>,
    /// The chess program keyed in, with its white men as it starts.
    pub program: Option<ProgramView>,
    /// The black king's square the keys before the last С/П entered, in
    /// the program's format.
    pub keyed: Option<String>,
}

/// A chess program as the page follows its game.
#[derive(Debug, Serialize)]
pub struct ProgramView {
    /// `queen` or `rook`.
    pub name: ChessProgram,
    pub white_king: String,
    /// The other white man: its square and letter (`Q`, `R`).
    pub man: String,
    pub man_letter: char,
    /// The square the white king never leaves, if the program fixes it.
    pub fixed_king: Option<String>,
    /// How to key a game in.
    pub help: &'static str,
}

impl From<ChessProgram> for ProgramView {
    fn from(program: ChessProgram) -> ProgramView {
        let (king, man, role) = program.start_men();
        ProgramView {
            name: program,
            white_king: king.to_string(),
            man: man.to_string(),
            man_letter: role.upper_char(),
            fixed_king: program.fixed_king().map(|square| square.to_string()),
            help: program.keying_help(),
        }
    }
}

fn switch_label(unit: AngleUnit) -> &'static str {
    match unit {
        AngleUnit::Radians => "Р",
        AngleUnit::Grads => "ГРД",
        AngleUnit::Degrees => "Г",
    }
}

fn view(id: GameId, mk61: &Mk61, stopped: bool) -> CalculatorView {
    let display: Display = mk61.calculator.display();
    CalculatorView {
        id: id.to_string(),
        display: display.to_string(),
        places: display
            .glyphs
            .iter()
            .zip(display.points)
            .map(|(glyph, point)| Place {
                glyph: glyph.to_char(),
                point,
            })
            .collect(),
        switch: switch_label(mk61.switch),
        stopped,
        shown: (mk61.program.as_ref()).map(|_| ShownView::from(&Shown::read(display))),
        program: (mk61.program.as_ref()).map(|keyed| ProgramView::from(keyed.program())),
        keyed: (mk61.program.as_ref())
            .and_then(KeyedProgram::keyed)
            .map(|square| square.to_string()),
    }
}

/// A calculator as the request asks (blocking: keying a program in runs
/// the emulator).
fn build(request: &NewCalculator) -> Result<Mk61, ApiError> {
    let setup = |err: SetupError| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string());
    let calculator = match request.program {
        None => Calculator::new(AngleUnit::Radians),
        Some(program) => CalculatorGame::start(program)
            .map_err(setup)?
            .calculator()
            .clone(),
    };
    Ok(Mk61 {
        calculator,
        switch: AngleUnit::Radians,
        program: request.program.map(KeyedProgram::new),
    })
}

/// Presses the key or moves the switch; returns whether the calculator
/// stopped.
fn apply(mk61: &mut Mk61, input: &Input) -> Result<bool, ApiError> {
    match (&input.key, &input.switch) {
        (Some(key), None) => {
            let key: Key = key.parse().map_err(|err: ajedrecista_mk61::UnknownName| {
                ApiError::bad_request(err.to_string())
            })?;
            if let Some(program) = &mut mk61.program {
                program.press(key);
            }
            Ok(mk61
                .calculator
                .press_with_limit(key, GAME_RUN_LIMIT)
                .stopped)
        }
        (None, Some(switch)) => {
            let unit: AngleUnit =
                switch
                    .parse()
                    .map_err(|err: ajedrecista_mk61::UnknownName| {
                        ApiError::bad_request(err.to_string())
                    })?;
            mk61.calculator.set_switch(unit);
            mk61.switch = unit;
            Ok(true)
        }
        _ => Err(ApiError::bad_request(
            "give either a key or a switch position",
        )),
    }
}

/// The calculators and the pool their emulation runs on.
#[derive(Clone)]
struct Shared {
    calculators: Calculators,
    work: Arc<WorkPool>,
}

async fn create(
    State(Shared { calculators, work }): State<Shared>,
    ApiJson(request): ApiJson<NewCalculator>,
) -> Result<Response, ApiError> {
    let mk61 = work.run(None, move || build(&request)).await?;
    let result = blocking(move || {
        // A full store drops the calculator idle the longest.
        let id = calculators.insert(mk61.clone());
        Ok(view(id, &mk61, true))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(result)).into_response())
}

async fn press(
    State(Shared { calculators, work }): State<Shared>,
    scope: RequestScope,
    ApiPath(id): ApiPath<String>,
    ApiJson(input): ApiJson<Input>,
) -> Result<Response, ApiError> {
    let (id, mk61) = calculators.find(&id, "calculator")?;
    let result = work
        .run(Some(scope), move || {
            let mut mk61 = lock(&mk61);
            let stopped = apply(&mut mk61, &input)?;
            Ok(view(id, &mk61, stopped))
        })
        .await?;
    Ok(Json(result).into_response())
}

/// `GET /api/calculators/{id}`: the calculator as it stands (a reload of
/// the page resumes its game).
async fn show(
    State(Shared { calculators, .. }): State<Shared>,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, ApiError> {
    let (id, mk61) = calculators.find(&id, "calculator")?;
    // Every press runs to a stop or the limit; the state shown is that.
    let result = blocking(move || Ok(view(id, &lock(&mk61), true))).await?;
    Ok(Json(result).into_response())
}

/// The calculator routes, with their own store (4096 calculators, an hour
/// idle), to be merged into the page's router.
pub fn routes<S: Clone + Send + Sync + 'static>(work: Arc<WorkPool>) -> Router<S> {
    let calculators: Calculators = Arc::new(GameStore::new(Limits::default()));
    Router::new()
        .route("/api/calculators", post(create))
        .route("/api/calculators/{id}", get(show))
        .route("/api/calculators/{id}/press", post(press))
        .with_state(Shared { calculators, work })
}
