"""Type hints of the compiled module; the documented API is in ``mofmu/__init__.py``."""

from typing import Dict, List, Optional, Sequence, Tuple

__version__: str

class MofmuError(Exception): ...

def check(paths: Sequence[str], units: bool = True) -> Tuple[int, List[str]]: ...
def export(
    paths: Sequence[str],
    model: str,
    output: str,
    sets: Sequence[Tuple[str, str]],
    stop_time: Optional[float] = None,
    interface: str = "both",
) -> Tuple[Optional[Dict[str, object]], List[str]]: ...

class LoadedFmu:
    def __init__(self, path: str) -> None: ...
    @property
    def path(self) -> str: ...
    @property
    def model_name(self) -> str: ...
    def simulate(
        self,
        start_time: Optional[float],
        stop_time: Optional[float],
        output_interval: Optional[float],
        tolerance: Optional[float],
        start_values: Sequence[Tuple[str, float]],
        outputs: Sequence[str],
        interface: Optional[str],
    ) -> Tuple[List[str], bytes, int]: ...

def sweep_cases(grids: Sequence[str], table: Optional[str] = None) -> Tuple[List[str], List[List[float]]]: ...
def sweep_pending(
    fmu: str,
    names: Sequence[str],
    rows: Sequence[Sequence[float]],
    outputs: Sequence[str],
    out: str,
    start_time: Optional[float],
    stop_time: Optional[float],
    output_interval: Optional[float],
    tolerance: Optional[float],
    interface: Optional[str],
) -> List[int]: ...
def sweep(
    fmu: str,
    names: Sequence[str],
    rows: Sequence[Sequence[float]],
    outputs: Sequence[str],
    out: str,
    start_time: Optional[float],
    stop_time: Optional[float],
    output_interval: Optional[float],
    tolerance: Optional[float],
    interface: Optional[str],
    workers: Optional[int],
    only: Optional[Sequence[int]],
    progress: bool,
) -> Dict[str, int]: ...
def plot_sweep(out: str, file: str) -> Dict[str, object]: ...
def check_plot_path(file: str) -> None: ...
