//! The routes: the page, and the JSON API of docs/web.md.

use std::sync::Arc;

use ajedrecista_automata::app::{
    BuildPolicy, CLAIMS, Claim, StartAnswer, StartSquares, StrategyView, start_answers,
};
use axum::Router;
use axum::extract::rejection::PathRejection;
use axum::extract::{DefaultBodyLimit, FromRequestParts, Path, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::{get, post};

use crate::audit::{AuditKey, AuditQuery};
use crate::error::{ApiError, ApiJson, ApiQuery};
use crate::games::{MoveFailure, MoveRequest, NewGame};
use crate::practice::NewPractice;
use crate::probe::{ProbeAnswer, ProbeQuery};
use crate::server::RequestScope;
use crate::store::GameId;
use crate::store::lock;
use crate::{AppState, MAX_BODY_BYTES, assets};
use ajedrecista_automata::app::Practice;

type Shared = State<Arc<AppState>>;

/// The page and the API.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/js/{file}", get(script))
        .route("/style.css", get(assets::style_css))
        .route("/favicon.svg", get(assets::favicon))
        .route("/favicon.ico", get(assets::favicon))
        .route("/api/strategies", get(strategies))
        .route("/api/page", get(page))
        .route("/api/claims", get(claims))
        .route("/api/starts", get(starts))
        .route("/api/starts/squares", get(start_squares))
        .route("/api/builds", get(builds))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/moves", post(game_move))
        .route("/api/games/{id}/undo", post(game_undo))
        .route("/api/practice", post(new_practice))
        .route("/api/practice/{id}", get(practice_state))
        .route("/api/practice/{id}/moves", post(practice_move))
        .route("/api/practice/{id}/hint", get(practice_hint))
        .route("/api/practice/{id}/undo", post(practice_undo))
        .route("/api/practice/{id}/retry", post(practice_retry))
        .route("/api/probe", get(probe))
        .route("/api/probe/pgn", get(line_pgn))
        .route("/api/audit/{strategy}", get(audit))
        .merge(crate::calculator::routes(Arc::clone(&state.work)))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(state)
}

/// Runs blocking work (table builds, audits, machine replies) off the
/// async threads.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| {
        Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the request's work stopped unexpectedly",
        ))
    })
}

async fn script(Path(file): Path<String>, request: HeaderMap) -> Response {
    assets::script(&request, &file)
        .unwrap_or_else(|| ApiError::not_found("no such script").into_response())
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such page or API route")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "this route does not take that method",
    )
}

/// A path segment whose rejection is an [`ApiError`].
pub(crate) struct ApiPath<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned + Send> FromRequestParts<S> for ApiPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Path(value) = Path::<T>::from_request_parts(parts, state)
            .await
            .map_err(|rejection: PathRejection| ApiError::bad_request(rejection.body_text()))?;
        Ok(ApiPath(value))
    }
}

async fn claims() -> Json<Vec<Claim>> {
    Json(CLAIMS.iter().map(Claim::as_shown).collect())
}

async fn strategies(State(state): Shared) -> Json<Vec<StrategyView>> {
    Json(StrategyView::all(&state.tables))
}

/// What the page needs to know of how it is served.
#[derive(serde::Serialize)]
struct PageView {
    /// Set when served as a kiosk: the seconds without input after which
    /// the page goes back to its start.
    kiosk: Option<KioskView>,
}

#[derive(serde::Serialize)]
struct KioskView {
    idle_seconds: u64,
}

/// `GET /api/page`: how the page is served (a kiosk or not).
async fn page(State(state): Shared) -> Json<PageView> {
    Json(PageView {
        kiosk: state.kiosk.map(|kiosk| KioskView {
            idle_seconds: kiosk.idle.as_secs(),
        }),
    })
}

/// `GET /api/builds`: the table builds under way, for a progress bar.
async fn builds(State(state): Shared) -> Json<Vec<crate::builds::BuildView>> {
    Json(state.builds.now(&state.queue.tickets()))
}

/// `GET /api/starts?fen=FEN`: which automata take the position as a start,
/// and why the others do not.
async fn starts(
    State(state): Shared,
    ApiQuery(query): ApiQuery<StartsQuery>,
) -> Result<Json<Vec<StartAnswer>>, ApiError> {
    let position = crate::probe::parse_fen(&query.fen)?;
    let tables = Arc::clone(&state.tables);
    let answers =
        blocking(move || Ok(start_answers(&position, &tables, BuildPolicy::Interactive))).await?;
    Ok(Json(answers))
}

/// `GET /api/starts/squares?board=BOARD&side=white`: where each automaton
/// takes the black king against the men of a board set up by hand.
async fn start_squares(
    State(state): Shared,
    ApiQuery(query): ApiQuery<crate::starts::SquaresQuery>,
) -> Result<Json<Vec<StartSquares>>, ApiError> {
    let tables = Arc::clone(&state.tables);
    let found = blocking(move || crate::starts::start_squares(&query, &tables)).await?;
    Ok(Json(found))
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct StartsQuery {
    fen: String,
}

async fn probe(
    State(state): Shared,
    scope: RequestScope,
    ApiQuery(query): ApiQuery<ProbeQuery>,
) -> Response {
    let tables = Arc::clone(&state.tables);
    let syzygy = state.syzygy.clone();
    let (asked, ready) = match blocking(move || {
        let asked = query.read();
        let ready = crate::probe::at_hand(&tables, syzygy.as_deref(), &asked);
        Ok((asked, ready))
    })
    .await
    {
        Ok(asked) => asked,
        Err(err) => return err.into_response(),
    };
    let tables = Arc::clone(&state.tables);
    let syzygy = state.syzygy.clone();
    let answer = if ready {
        let work = move |scope: &RequestScope| {
            crate::probe::probe(&tables, syzygy.as_deref(), asked, scope.stop_flag())
                .map(|view| ProbeAnswer::View(Box::new(view)))
        };
        scope.blocking(work).await
    } else {
        // A build: on the work pool, or queued in the background.
        let job_scope = scope.clone();
        let shared = Arc::clone(&state);
        let work = move || crate::probe::probe_or_queue(&shared, asked, job_scope.stop_flag());
        state.work.run(Some(scope), work).await
    };
    match answer {
        Ok(ProbeAnswer::View(view)) => Json(view).into_response(),
        Ok(ProbeAnswer::Building(ticket)) => (StatusCode::ACCEPTED, Json(ticket)).into_response(),
        Err(err) => err.into_response(),
    }
}

/// The analysis board's line as a PGN file to download.
async fn line_pgn(
    State(state): Shared,
    ApiQuery(query): ApiQuery<crate::probe::LineQuery>,
) -> Result<Response, ApiError> {
    let tables = Arc::clone(&state.tables);
    let pgn = blocking(move || crate::probe::line(&tables, &query)).await?;
    let headers = [
        (CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8"),
        (CONTENT_DISPOSITION, "attachment; filename=\"analysis.pgn\""),
    ];
    Ok((headers, pgn).into_response())
}

async fn audit(
    State(state): Shared,
    scope: RequestScope,
    ApiPath(strategy): ApiPath<String>,
    ApiQuery(query): ApiQuery<AuditQuery>,
) -> Result<Response, ApiError> {
    let key = AuditKey::new(&strategy, &query)?;
    let shared = Arc::clone(&state);
    // No scope for the pool: the audit checks it itself, and counts a stop
    // (`AuditCache::stopped`).
    let view = state
        .work
        .run(None, move || shared.audits.get(&shared.tables, key, &scope))
        .await?;
    Ok(Json(&*view).into_response())
}

async fn new_game(
    State(state): Shared,
    scope: RequestScope,
    ApiJson(request): ApiJson<NewGame>,
) -> Result<Response, ApiError> {
    let tables = Arc::clone(&state.tables);
    // Tables prepared, or the calculator's first reply: on the work pool.
    let job_scope = scope.clone();
    let session = state
        .work
        .run(Some(scope), move || {
            crate::games::new_session(tables, &request, job_scope.stop_flag())
        })
        .await?;
    let shared = Arc::clone(&state);
    let view = blocking(move || {
        let id = shared.games.insert(session);
        let (_, game) = shared.games.find(&id.to_string(), "game")?;
        let session = lock(&game);
        Ok(crate::games::view(id, &session))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

async fn game_state(
    State(state): Shared,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, ApiError> {
    let (id, game) = state.games.find(&id, "game")?;
    // The lock waits while another request's move is worked out: never on
    // the async threads.
    let view = blocking(move || Ok(crate::games::view(id, &lock(&game)))).await?;
    Ok(Json(view).into_response())
}

async fn game_move(
    State(state): Shared,
    ApiPath(id): ApiPath<String>,
    ApiJson(request): ApiJson<MoveRequest>,
) -> Result<Response, ApiError> {
    let (id, game) = state.games.find(&id, "game")?;
    blocking(move || {
        let mut session = lock(&game);
        Ok(
            match crate::games::play_move(id, &mut session, &request.text) {
                Ok(view) => Json(view).into_response(),
                // The lamp lighting is the game going on, not a failed
                // request: the count changes and the view is the new state.
                Err(MoveFailure::Illegal(view)) => Json(view).into_response(),
                // Not a move: a hint, the game unchanged.
                Err(MoveFailure::NotAMove(view)) => Json(view).into_response(),
                Err(MoveFailure::Refused(err)) => err.into_response(),
            },
        )
    })
    .await
}

async fn game_undo(
    State(state): Shared,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, ApiError> {
    let (id, game) = state.games.find(&id, "game")?;
    let view = blocking(move || crate::games::undo(id, &mut lock(&game))).await?;
    Ok(Json(view).into_response())
}

async fn new_practice(
    State(state): Shared,
    scope: RequestScope,
    ApiJson(request): ApiJson<NewPractice>,
) -> Result<Response, ApiError> {
    let tables = Arc::clone(&state.tables);
    // Its table prepared, and the method's own table: on the work pool.
    let job_scope = scope.clone();
    let practice = state
        .work
        .run(Some(scope), move || {
            crate::practice::new_practice(tables, &request, job_scope.stop_flag())
        })
        .await?;
    let shared = Arc::clone(&state);
    let view = blocking(move || {
        let id = shared.practices.insert(practice);
        let (_, practice) = shared.practices.find(&id.to_string(), "practice")?;
        crate::practice::state(id, &lock(&practice))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

/// A practice's work, blocking (its lock and its probes), on practice `id`.
async fn with_practice<T: serde::Serialize + Send + 'static>(
    state: &AppState,
    id: &str,
    work: impl FnOnce(GameId, &mut Practice) -> Result<T, ApiError> + Send + 'static,
) -> Result<Response, ApiError> {
    let (id, practice) = state.practices.find(id, "practice")?;
    let answer = blocking(move || work(id, &mut lock(&practice))).await?;
    Ok(Json(answer).into_response())
}

async fn practice_state(
    State(state): Shared,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, ApiError> {
    with_practice(&state, &id, |id, practice| {
        crate::practice::state(id, practice)
    })
    .await
}

async fn practice_move(
    State(state): Shared,
    ApiPath(id): ApiPath<String>,
    ApiJson(request): ApiJson<MoveRequest>,
) -> Result<Response, ApiError> {
    with_practice(&state, &id, move |id, practice| {
        crate::practice::play(id, practice, &request.text)
    })
    .await
}

async fn practice_hint(
    State(state): Shared,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, ApiError> {
    with_practice(&state, &id, |_, practice| crate::practice::hint(practice)).await
}

async fn practice_undo(
    State(state): Shared,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, ApiError> {
    with_practice(&state, &id, crate::practice::undo).await
}

async fn practice_retry(
    State(state): Shared,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, ApiError> {
    with_practice(&state, &id, crate::practice::retry).await
}
