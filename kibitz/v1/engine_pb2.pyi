from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games",)
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameInfo]
    def __init__(self, games: _Optional[_Iterable[_Union[GameInfo, _Mapping]]] = ...) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ("name", "title", "players", "has_chance", "default_position", "notation_help", "default_engine", "zero_sum", "capabilities", "notation", "player_names", "board_shape", "hidden_information")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    HAS_CHANCE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_POSITION_FIELD_NUMBER: _ClassVar[int]
    NOTATION_HELP_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_ENGINE_FIELD_NUMBER: _ClassVar[int]
    ZERO_SUM_FIELD_NUMBER: _ClassVar[int]
    CAPABILITIES_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAMES_FIELD_NUMBER: _ClassVar[int]
    BOARD_SHAPE_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_INFORMATION_FIELD_NUMBER: _ClassVar[int]
    name: str
    title: str
    players: int
    has_chance: bool
    default_position: str
    notation_help: str
    default_engine: str
    zero_sum: bool
    capabilities: _containers.RepeatedScalarFieldContainer[str]
    notation: str
    player_names: _containers.RepeatedScalarFieldContainer[str]
    board_shape: _containers.RepeatedScalarFieldContainer[int]
    hidden_information: bool
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., players: _Optional[int] = ..., has_chance: _Optional[bool] = ..., default_position: _Optional[str] = ..., notation_help: _Optional[str] = ..., default_engine: _Optional[str] = ..., zero_sum: _Optional[bool] = ..., capabilities: _Optional[_Iterable[str]] = ..., notation: _Optional[str] = ..., player_names: _Optional[_Iterable[str]] = ..., board_shape: _Optional[_Iterable[int]] = ..., hidden_information: _Optional[bool] = ...) -> None: ...

class ListEnginesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListEnginesResponse(_message.Message):
    __slots__ = ("engines", "limit_ranges")
    ENGINES_FIELD_NUMBER: _ClassVar[int]
    LIMIT_RANGES_FIELD_NUMBER: _ClassVar[int]
    engines: _containers.RepeatedCompositeFieldContainer[EngineInfo]
    limit_ranges: LimitRanges
    def __init__(self, engines: _Optional[_Iterable[_Union[EngineInfo, _Mapping]]] = ..., limit_ranges: _Optional[_Union[LimitRanges, _Mapping]] = ...) -> None: ...

class LimitRanges(_message.Message):
    __slots__ = ("max_depth", "max_move_time_ms", "max_multipv", "max_clock_ms", "default_move_time_ms", "max_search_time_ms", "move_overhead_ms")
    MAX_DEPTH_FIELD_NUMBER: _ClassVar[int]
    MAX_MOVE_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    MAX_MULTIPV_FIELD_NUMBER: _ClassVar[int]
    MAX_CLOCK_MS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_MOVE_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    MAX_SEARCH_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    MOVE_OVERHEAD_MS_FIELD_NUMBER: _ClassVar[int]
    max_depth: int
    max_move_time_ms: int
    max_multipv: int
    max_clock_ms: int
    default_move_time_ms: int
    max_search_time_ms: int
    move_overhead_ms: int
    def __init__(self, max_depth: _Optional[int] = ..., max_move_time_ms: _Optional[int] = ..., max_multipv: _Optional[int] = ..., max_clock_ms: _Optional[int] = ..., default_move_time_ms: _Optional[int] = ..., max_search_time_ms: _Optional[int] = ..., move_overhead_ms: _Optional[int] = ...) -> None: ...

class EngineInfo(_message.Message):
    __slots__ = ("name", "description", "games", "options")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    games: _containers.RepeatedScalarFieldContainer[str]
    options: _containers.RepeatedCompositeFieldContainer[OptionInfo]
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ..., options: _Optional[_Iterable[_Union[OptionInfo, _Mapping]]] = ...) -> None: ...

class OptionInfo(_message.Message):
    __slots__ = ("name", "type", "default", "min", "max", "choices", "description")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: str
    default: str
    min: int
    max: int
    choices: _containers.RepeatedScalarFieldContainer[str]
    description: str
    def __init__(self, name: _Optional[str] = ..., type: _Optional[str] = ..., default: _Optional[str] = ..., min: _Optional[int] = ..., max: _Optional[int] = ..., choices: _Optional[_Iterable[str]] = ..., description: _Optional[str] = ...) -> None: ...

class DescribeRequest(_message.Message):
    __slots__ = ("game", "position", "moves", "view_of")
    GAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    VIEW_OF_FIELD_NUMBER: _ClassVar[int]
    game: str
    position: str
    moves: _containers.RepeatedScalarFieldContainer[str]
    view_of: int
    def __init__(self, game: _Optional[str] = ..., position: _Optional[str] = ..., moves: _Optional[_Iterable[str]] = ..., view_of: _Optional[int] = ...) -> None: ...

class PositionInfo(_message.Message):
    __slots__ = ("game", "position", "board", "to_move", "legal_moves", "game_over", "probabilities", "perspective", "board_shape", "legal_move_labels", "diagram", "played_labels", "move_number", "played_chance")
    GAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    LEGAL_MOVES_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    PROBABILITIES_FIELD_NUMBER: _ClassVar[int]
    PERSPECTIVE_FIELD_NUMBER: _ClassVar[int]
    BOARD_SHAPE_FIELD_NUMBER: _ClassVar[int]
    LEGAL_MOVE_LABELS_FIELD_NUMBER: _ClassVar[int]
    DIAGRAM_FIELD_NUMBER: _ClassVar[int]
    PLAYED_LABELS_FIELD_NUMBER: _ClassVar[int]
    MOVE_NUMBER_FIELD_NUMBER: _ClassVar[int]
    PLAYED_CHANCE_FIELD_NUMBER: _ClassVar[int]
    game: str
    position: str
    board: str
    to_move: int
    legal_moves: _containers.RepeatedScalarFieldContainer[str]
    game_over: GameOver
    probabilities: _containers.RepeatedScalarFieldContainer[float]
    perspective: int
    board_shape: _containers.RepeatedScalarFieldContainer[int]
    legal_move_labels: _containers.RepeatedScalarFieldContainer[str]
    diagram: Diagram
    played_labels: _containers.RepeatedScalarFieldContainer[str]
    move_number: int
    played_chance: _containers.RepeatedScalarFieldContainer[bool]
    def __init__(self, game: _Optional[str] = ..., position: _Optional[str] = ..., board: _Optional[str] = ..., to_move: _Optional[int] = ..., legal_moves: _Optional[_Iterable[str]] = ..., game_over: _Optional[_Union[GameOver, _Mapping]] = ..., probabilities: _Optional[_Iterable[float]] = ..., perspective: _Optional[int] = ..., board_shape: _Optional[_Iterable[int]] = ..., legal_move_labels: _Optional[_Iterable[str]] = ..., diagram: _Optional[_Union[Diagram, _Mapping]] = ..., played_labels: _Optional[_Iterable[str]] = ..., move_number: _Optional[int] = ..., played_chance: _Optional[_Iterable[bool]] = ...) -> None: ...

class Diagram(_message.Message):
    __slots__ = ("kind", "rows", "columns", "places", "targets", "highlights", "dice", "gauges", "column_labels", "row_labels", "colors", "edges", "checkered", "block_rows", "block_columns")
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[Diagram.Kind]
        GRID: _ClassVar[Diagram.Kind]
        HEX: _ClassVar[Diagram.Kind]
        POINTS: _ClassVar[Diagram.Kind]
        HEAPS: _ClassVar[Diagram.Kind]
        PANEL: _ClassVar[Diagram.Kind]
    KIND_UNSPECIFIED: Diagram.Kind
    GRID: Diagram.Kind
    HEX: Diagram.Kind
    POINTS: Diagram.Kind
    HEAPS: Diagram.Kind
    PANEL: Diagram.Kind
    KIND_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    PLACES_FIELD_NUMBER: _ClassVar[int]
    TARGETS_FIELD_NUMBER: _ClassVar[int]
    HIGHLIGHTS_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    GAUGES_FIELD_NUMBER: _ClassVar[int]
    COLUMN_LABELS_FIELD_NUMBER: _ClassVar[int]
    ROW_LABELS_FIELD_NUMBER: _ClassVar[int]
    COLORS_FIELD_NUMBER: _ClassVar[int]
    EDGES_FIELD_NUMBER: _ClassVar[int]
    CHECKERED_FIELD_NUMBER: _ClassVar[int]
    BLOCK_ROWS_FIELD_NUMBER: _ClassVar[int]
    BLOCK_COLUMNS_FIELD_NUMBER: _ClassVar[int]
    kind: Diagram.Kind
    rows: int
    columns: int
    places: _containers.RepeatedCompositeFieldContainer[Place]
    targets: _containers.RepeatedCompositeFieldContainer[Target]
    highlights: _containers.RepeatedScalarFieldContainer[str]
    dice: _containers.RepeatedScalarFieldContainer[int]
    gauges: _containers.RepeatedCompositeFieldContainer[Gauge]
    column_labels: _containers.RepeatedScalarFieldContainer[str]
    row_labels: _containers.RepeatedScalarFieldContainer[str]
    colors: _containers.RepeatedScalarFieldContainer[str]
    edges: _containers.RepeatedScalarFieldContainer[int]
    checkered: bool
    block_rows: int
    block_columns: int
    def __init__(self, kind: _Optional[_Union[Diagram.Kind, str]] = ..., rows: _Optional[int] = ..., columns: _Optional[int] = ..., places: _Optional[_Iterable[_Union[Place, _Mapping]]] = ..., targets: _Optional[_Iterable[_Union[Target, _Mapping]]] = ..., highlights: _Optional[_Iterable[str]] = ..., dice: _Optional[_Iterable[int]] = ..., gauges: _Optional[_Iterable[_Union[Gauge, _Mapping]]] = ..., column_labels: _Optional[_Iterable[str]] = ..., row_labels: _Optional[_Iterable[str]] = ..., colors: _Optional[_Iterable[str]] = ..., edges: _Optional[_Iterable[int]] = ..., checkered: _Optional[bool] = ..., block_rows: _Optional[int] = ..., block_columns: _Optional[int] = ...) -> None: ...

class Place(_message.Message):
    __slots__ = ("id", "row", "column", "piece", "owner", "count", "label")
    ID_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    COLUMN_FIELD_NUMBER: _ClassVar[int]
    PIECE_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    id: str
    row: int
    column: int
    piece: str
    owner: int
    count: int
    label: str
    def __init__(self, id: _Optional[str] = ..., row: _Optional[int] = ..., column: _Optional[int] = ..., piece: _Optional[str] = ..., owner: _Optional[int] = ..., count: _Optional[int] = ..., label: _Optional[str] = ...) -> None: ...

class Target(_message.Message):
    __slots__ = ("move", "from_place", "to_places")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    FROM_PLACE_FIELD_NUMBER: _ClassVar[int]
    TO_PLACES_FIELD_NUMBER: _ClassVar[int]
    move: str
    from_place: str
    to_places: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, move: _Optional[str] = ..., from_place: _Optional[str] = ..., to_places: _Optional[_Iterable[str]] = ...) -> None: ...

class Gauge(_message.Message):
    __slots__ = ("label", "value", "maximum", "owner")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    MAXIMUM_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    label: str
    value: int
    maximum: int
    owner: int
    def __init__(self, label: _Optional[str] = ..., value: _Optional[int] = ..., maximum: _Optional[int] = ..., owner: _Optional[int] = ...) -> None: ...

class ExportRequest(_message.Message):
    __slots__ = ("game", "position", "moves", "players", "headers", "comments", "nodes")
    class HeadersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    GAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    HEADERS_FIELD_NUMBER: _ClassVar[int]
    COMMENTS_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    game: str
    position: str
    moves: _containers.RepeatedScalarFieldContainer[str]
    players: _containers.RepeatedScalarFieldContainer[str]
    headers: _containers.ScalarMap[str, str]
    comments: _containers.RepeatedScalarFieldContainer[str]
    nodes: _containers.RepeatedCompositeFieldContainer[RecordNode]
    def __init__(self, game: _Optional[str] = ..., position: _Optional[str] = ..., moves: _Optional[_Iterable[str]] = ..., players: _Optional[_Iterable[str]] = ..., headers: _Optional[_Mapping[str, str]] = ..., comments: _Optional[_Iterable[str]] = ..., nodes: _Optional[_Iterable[_Union[RecordNode, _Mapping]]] = ...) -> None: ...

class RecordNode(_message.Message):
    __slots__ = ("parent", "move", "label", "comment", "clock_ms", "eval_centi", "eval_plies")
    PARENT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    COMMENT_FIELD_NUMBER: _ClassVar[int]
    CLOCK_MS_FIELD_NUMBER: _ClassVar[int]
    EVAL_CENTI_FIELD_NUMBER: _ClassVar[int]
    EVAL_PLIES_FIELD_NUMBER: _ClassVar[int]
    parent: int
    move: str
    label: str
    comment: str
    clock_ms: int
    eval_centi: int
    eval_plies: int
    def __init__(self, parent: _Optional[int] = ..., move: _Optional[str] = ..., label: _Optional[str] = ..., comment: _Optional[str] = ..., clock_ms: _Optional[int] = ..., eval_centi: _Optional[int] = ..., eval_plies: _Optional[int] = ...) -> None: ...

class ImportRequest(_message.Message):
    __slots__ = ("game", "text")
    GAME_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    game: str
    text: str
    def __init__(self, game: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class GameTree(_message.Message):
    __slots__ = ("game", "position", "headers", "nodes")
    class HeadersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    GAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    HEADERS_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    game: str
    position: str
    headers: _containers.ScalarMap[str, str]
    nodes: _containers.RepeatedCompositeFieldContainer[RecordNode]
    def __init__(self, game: _Optional[str] = ..., position: _Optional[str] = ..., headers: _Optional[_Mapping[str, str]] = ..., nodes: _Optional[_Iterable[_Union[RecordNode, _Mapping]]] = ...) -> None: ...

class GameRecord(_message.Message):
    __slots__ = ("format", "media_type", "text")
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    MEDIA_TYPE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    format: str
    media_type: str
    text: str
    def __init__(self, format: _Optional[str] = ..., media_type: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class CreateSessionRequest(_message.Message):
    __slots__ = ("game", "engine", "options", "session_id")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    GAME_FIELD_NUMBER: _ClassVar[int]
    ENGINE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    game: str
    engine: str
    options: _containers.ScalarMap[str, str]
    session_id: str
    def __init__(self, game: _Optional[str] = ..., engine: _Optional[str] = ..., options: _Optional[_Mapping[str, str]] = ..., session_id: _Optional[str] = ...) -> None: ...

class Session(_message.Message):
    __slots__ = ("id", "game", "engine", "options", "searching", "searches", "idle_timeout_seconds", "owner", "idle_seconds", "idle_timeout_ms", "idle_ms")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    ENGINE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEARCHING_FIELD_NUMBER: _ClassVar[int]
    SEARCHES_FIELD_NUMBER: _ClassVar[int]
    IDLE_TIMEOUT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    IDLE_SECONDS_FIELD_NUMBER: _ClassVar[int]
    IDLE_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    IDLE_MS_FIELD_NUMBER: _ClassVar[int]
    id: str
    game: str
    engine: str
    options: _containers.ScalarMap[str, str]
    searching: bool
    searches: int
    idle_timeout_seconds: float
    owner: str
    idle_seconds: float
    idle_timeout_ms: int
    idle_ms: int
    def __init__(self, id: _Optional[str] = ..., game: _Optional[str] = ..., engine: _Optional[str] = ..., options: _Optional[_Mapping[str, str]] = ..., searching: _Optional[bool] = ..., searches: _Optional[int] = ..., idle_timeout_seconds: _Optional[float] = ..., owner: _Optional[str] = ..., idle_seconds: _Optional[float] = ..., idle_timeout_ms: _Optional[int] = ..., idle_ms: _Optional[int] = ...) -> None: ...

class ListSessionsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListSessionsResponse(_message.Message):
    __slots__ = ("sessions",)
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    sessions: _containers.RepeatedCompositeFieldContainer[Session]
    def __init__(self, sessions: _Optional[_Iterable[_Union[Session, _Mapping]]] = ...) -> None: ...

class GetSessionRequest(_message.Message):
    __slots__ = ("session_id",)
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    def __init__(self, session_id: _Optional[str] = ...) -> None: ...

class SetOptionsRequest(_message.Message):
    __slots__ = ("session_id", "options")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    options: _containers.ScalarMap[str, str]
    def __init__(self, session_id: _Optional[str] = ..., options: _Optional[_Mapping[str, str]] = ...) -> None: ...

class NewGameRequest(_message.Message):
    __slots__ = ("session_id",)
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    def __init__(self, session_id: _Optional[str] = ...) -> None: ...

class CloseSessionRequest(_message.Message):
    __slots__ = ("session_id",)
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    def __init__(self, session_id: _Optional[str] = ...) -> None: ...

class CloseSessionResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Limits(_message.Message):
    __slots__ = ("depth", "nodes", "move_time_ms", "clock", "infinite", "search_moves", "multipv", "solve", "report_root_moves")
    DEPTH_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    MOVE_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    INFINITE_FIELD_NUMBER: _ClassVar[int]
    SEARCH_MOVES_FIELD_NUMBER: _ClassVar[int]
    MULTIPV_FIELD_NUMBER: _ClassVar[int]
    SOLVE_FIELD_NUMBER: _ClassVar[int]
    REPORT_ROOT_MOVES_FIELD_NUMBER: _ClassVar[int]
    depth: int
    nodes: int
    move_time_ms: int
    clock: Clock
    infinite: bool
    search_moves: _containers.RepeatedScalarFieldContainer[str]
    multipv: int
    solve: bool
    report_root_moves: bool
    def __init__(self, depth: _Optional[int] = ..., nodes: _Optional[int] = ..., move_time_ms: _Optional[int] = ..., clock: _Optional[_Union[Clock, _Mapping]] = ..., infinite: _Optional[bool] = ..., search_moves: _Optional[_Iterable[str]] = ..., multipv: _Optional[int] = ..., solve: _Optional[bool] = ..., report_root_moves: _Optional[bool] = ...) -> None: ...

class Clock(_message.Message):
    __slots__ = ("time_left_ms", "increment_ms", "moves_to_go")
    TIME_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_MS_FIELD_NUMBER: _ClassVar[int]
    MOVES_TO_GO_FIELD_NUMBER: _ClassVar[int]
    time_left_ms: _containers.RepeatedScalarFieldContainer[int]
    increment_ms: _containers.RepeatedScalarFieldContainer[int]
    moves_to_go: int
    def __init__(self, time_left_ms: _Optional[_Iterable[int]] = ..., increment_ms: _Optional[_Iterable[int]] = ..., moves_to_go: _Optional[int] = ...) -> None: ...

class SearchRequest(_message.Message):
    __slots__ = ("session_id", "position", "moves", "limits", "priority")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    position: str
    moves: _containers.RepeatedScalarFieldContainer[str]
    limits: Limits
    priority: int
    def __init__(self, session_id: _Optional[str] = ..., position: _Optional[str] = ..., moves: _Optional[_Iterable[str]] = ..., limits: _Optional[_Union[Limits, _Mapping]] = ..., priority: _Optional[int] = ...) -> None: ...

class AnalyzeRequest(_message.Message):
    __slots__ = ("game", "engine", "options", "position", "moves", "limits", "priority")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    GAME_FIELD_NUMBER: _ClassVar[int]
    ENGINE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    game: str
    engine: str
    options: _containers.ScalarMap[str, str]
    position: str
    moves: _containers.RepeatedScalarFieldContainer[str]
    limits: Limits
    priority: int
    def __init__(self, game: _Optional[str] = ..., engine: _Optional[str] = ..., options: _Optional[_Mapping[str, str]] = ..., position: _Optional[str] = ..., moves: _Optional[_Iterable[str]] = ..., limits: _Optional[_Union[Limits, _Mapping]] = ..., priority: _Optional[int] = ...) -> None: ...

class StopRequest(_message.Message):
    __slots__ = ("session_id",)
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    def __init__(self, session_id: _Optional[str] = ...) -> None: ...

class StopResponse(_message.Message):
    __slots__ = ("was_searching",)
    WAS_SEARCHING_FIELD_NUMBER: _ClassVar[int]
    was_searching: bool
    def __init__(self, was_searching: _Optional[bool] = ...) -> None: ...

class SearchResponse(_message.Message):
    __slots__ = ("info", "result")
    INFO_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    info: Info
    result: Result
    def __init__(self, info: _Optional[_Union[Info, _Mapping]] = ..., result: _Optional[_Union[Result, _Mapping]] = ...) -> None: ...

class Score(_message.Message):
    __slots__ = ("kind", "centi", "plies", "bound", "win_probability", "draw_probability", "loss_probability", "visits", "player", "expected_value", "proven", "label", "win_gammon_probability", "win_backgammon_probability", "loss_gammon_probability", "loss_backgammon_probability", "player_values")
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[Score.Kind]
        HEURISTIC: _ClassVar[Score.Kind]
        WIN: _ClassVar[Score.Kind]
        LOSS: _ClassVar[Score.Kind]
        DRAW: _ClassVar[Score.Kind]
    KIND_UNSPECIFIED: Score.Kind
    HEURISTIC: Score.Kind
    WIN: Score.Kind
    LOSS: Score.Kind
    DRAW: Score.Kind
    class Bound(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        BOUND_UNSPECIFIED: _ClassVar[Score.Bound]
        EXACT: _ClassVar[Score.Bound]
        LOWER: _ClassVar[Score.Bound]
        UPPER: _ClassVar[Score.Bound]
    BOUND_UNSPECIFIED: Score.Bound
    EXACT: Score.Bound
    LOWER: Score.Bound
    UPPER: Score.Bound
    KIND_FIELD_NUMBER: _ClassVar[int]
    CENTI_FIELD_NUMBER: _ClassVar[int]
    PLIES_FIELD_NUMBER: _ClassVar[int]
    BOUND_FIELD_NUMBER: _ClassVar[int]
    WIN_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    DRAW_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    LOSS_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    VISITS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VALUE_FIELD_NUMBER: _ClassVar[int]
    PROVEN_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    WIN_GAMMON_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    WIN_BACKGAMMON_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    LOSS_GAMMON_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    LOSS_BACKGAMMON_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    PLAYER_VALUES_FIELD_NUMBER: _ClassVar[int]
    kind: Score.Kind
    centi: int
    plies: int
    bound: Score.Bound
    win_probability: float
    draw_probability: float
    loss_probability: float
    visits: int
    player: int
    expected_value: float
    proven: bool
    label: str
    win_gammon_probability: float
    win_backgammon_probability: float
    loss_gammon_probability: float
    loss_backgammon_probability: float
    player_values: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, kind: _Optional[_Union[Score.Kind, str]] = ..., centi: _Optional[int] = ..., plies: _Optional[int] = ..., bound: _Optional[_Union[Score.Bound, str]] = ..., win_probability: _Optional[float] = ..., draw_probability: _Optional[float] = ..., loss_probability: _Optional[float] = ..., visits: _Optional[int] = ..., player: _Optional[int] = ..., expected_value: _Optional[float] = ..., proven: _Optional[bool] = ..., label: _Optional[str] = ..., win_gammon_probability: _Optional[float] = ..., win_backgammon_probability: _Optional[float] = ..., loss_gammon_probability: _Optional[float] = ..., loss_backgammon_probability: _Optional[float] = ..., player_values: _Optional[_Iterable[float]] = ...) -> None: ...

class Info(_message.Message):
    __slots__ = ("depth", "selective_depth", "score", "nodes", "nodes_per_second", "time_ms", "pv", "multipv", "hash_full", "root_moves", "queued_ms", "pv_labels")
    DEPTH_FIELD_NUMBER: _ClassVar[int]
    SELECTIVE_DEPTH_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    NODES_PER_SECOND_FIELD_NUMBER: _ClassVar[int]
    TIME_MS_FIELD_NUMBER: _ClassVar[int]
    PV_FIELD_NUMBER: _ClassVar[int]
    MULTIPV_FIELD_NUMBER: _ClassVar[int]
    HASH_FULL_FIELD_NUMBER: _ClassVar[int]
    ROOT_MOVES_FIELD_NUMBER: _ClassVar[int]
    QUEUED_MS_FIELD_NUMBER: _ClassVar[int]
    PV_LABELS_FIELD_NUMBER: _ClassVar[int]
    depth: int
    selective_depth: int
    score: Score
    nodes: int
    nodes_per_second: int
    time_ms: int
    pv: _containers.RepeatedScalarFieldContainer[str]
    multipv: int
    hash_full: int
    root_moves: _containers.RepeatedCompositeFieldContainer[RootMove]
    queued_ms: int
    pv_labels: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, depth: _Optional[int] = ..., selective_depth: _Optional[int] = ..., score: _Optional[_Union[Score, _Mapping]] = ..., nodes: _Optional[int] = ..., nodes_per_second: _Optional[int] = ..., time_ms: _Optional[int] = ..., pv: _Optional[_Iterable[str]] = ..., multipv: _Optional[int] = ..., hash_full: _Optional[int] = ..., root_moves: _Optional[_Iterable[_Union[RootMove, _Mapping]]] = ..., queued_ms: _Optional[int] = ..., pv_labels: _Optional[_Iterable[str]] = ...) -> None: ...

class RootMove(_message.Message):
    __slots__ = ("move", "score", "pv", "prior", "probability", "move_label", "pv_labels")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    PV_FIELD_NUMBER: _ClassVar[int]
    PRIOR_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    MOVE_LABEL_FIELD_NUMBER: _ClassVar[int]
    PV_LABELS_FIELD_NUMBER: _ClassVar[int]
    move: str
    score: Score
    pv: _containers.RepeatedScalarFieldContainer[str]
    prior: float
    probability: float
    move_label: str
    pv_labels: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, move: _Optional[str] = ..., score: _Optional[_Union[Score, _Mapping]] = ..., pv: _Optional[_Iterable[str]] = ..., prior: _Optional[float] = ..., probability: _Optional[float] = ..., move_label: _Optional[str] = ..., pv_labels: _Optional[_Iterable[str]] = ...) -> None: ...

class GameOver(_message.Message):
    __slots__ = ("returns", "reason")
    RETURNS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    returns: _containers.RepeatedScalarFieldContainer[float]
    reason: str
    def __init__(self, returns: _Optional[_Iterable[float]] = ..., reason: _Optional[str] = ...) -> None: ...

class Result(_message.Message):
    __slots__ = ("best_move", "ponder_move", "score", "pv", "root_moves", "nodes", "time_ms", "depth", "stop_reason", "game_over", "selective_depth", "stats", "stopped_by", "best_move_label", "pv_labels")
    class StopReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        STOP_REASON_UNSPECIFIED: _ClassVar[Result.StopReason]
        DEPTH: _ClassVar[Result.StopReason]
        NODES: _ClassVar[Result.StopReason]
        TIME: _ClassVar[Result.StopReason]
        STOPPED: _ClassVar[Result.StopReason]
        SOLVED: _ClassVar[Result.StopReason]
        GAME_OVER: _ClassVar[Result.StopReason]
        TIME_CAP: _ClassVar[Result.StopReason]
    STOP_REASON_UNSPECIFIED: Result.StopReason
    DEPTH: Result.StopReason
    NODES: Result.StopReason
    TIME: Result.StopReason
    STOPPED: Result.StopReason
    SOLVED: Result.StopReason
    GAME_OVER: Result.StopReason
    TIME_CAP: Result.StopReason
    class StatsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    BEST_MOVE_FIELD_NUMBER: _ClassVar[int]
    PONDER_MOVE_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    PV_FIELD_NUMBER: _ClassVar[int]
    ROOT_MOVES_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    TIME_MS_FIELD_NUMBER: _ClassVar[int]
    DEPTH_FIELD_NUMBER: _ClassVar[int]
    STOP_REASON_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    SELECTIVE_DEPTH_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    STOPPED_BY_FIELD_NUMBER: _ClassVar[int]
    BEST_MOVE_LABEL_FIELD_NUMBER: _ClassVar[int]
    PV_LABELS_FIELD_NUMBER: _ClassVar[int]
    best_move: str
    ponder_move: str
    score: Score
    pv: _containers.RepeatedScalarFieldContainer[str]
    root_moves: _containers.RepeatedCompositeFieldContainer[RootMove]
    nodes: int
    time_ms: int
    depth: int
    stop_reason: str
    game_over: GameOver
    selective_depth: int
    stats: _containers.ScalarMap[str, float]
    stopped_by: Result.StopReason
    best_move_label: str
    pv_labels: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, best_move: _Optional[str] = ..., ponder_move: _Optional[str] = ..., score: _Optional[_Union[Score, _Mapping]] = ..., pv: _Optional[_Iterable[str]] = ..., root_moves: _Optional[_Iterable[_Union[RootMove, _Mapping]]] = ..., nodes: _Optional[int] = ..., time_ms: _Optional[int] = ..., depth: _Optional[int] = ..., stop_reason: _Optional[str] = ..., game_over: _Optional[_Union[GameOver, _Mapping]] = ..., selective_depth: _Optional[int] = ..., stats: _Optional[_Mapping[str, float]] = ..., stopped_by: _Optional[_Union[Result.StopReason, str]] = ..., best_move_label: _Optional[str] = ..., pv_labels: _Optional[_Iterable[str]] = ...) -> None: ...
