//! Writes the FMU zip deterministically and atomically.
//!
//! Entries are written in sorted path order, each with the same timestamp
//! (1980-01-01 00:00, the earliest a zip can record), fixed Unix
//! permissions and deflate at a fixed level, so equal contents give an
//! equal archive. The archive is written to a temporary file beside the
//! destination and renamed over it only once complete: on error the
//! destination is either absent or still holds what it held before.

use std::borrow::Cow;
use std::fs::Permissions;
use std::io::{Seek, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use super::error::{io_error, PackageError};

/// One file of the archive. The bytes may be borrowed (a large model's
/// system resource is written from where it already is), or written into
/// the archive by a function (a large model's description is never held in
/// memory as a whole).
#[derive(Debug)]
pub struct ArchiveEntry<'a> {
    /// Path inside the archive, with `/` separators.
    pub path: String,
    pub bytes: Contents<'a>,
    /// Whether the entry gets mode 0755 (the shared library) or 0644.
    pub executable: bool,
}

/// What an entry holds.
pub enum Contents<'a> {
    Bytes(Cow<'a, [u8]>),
    /// Written by the function into the (compressing) archive writer. The
    /// function runs on a thread of its own while this one compresses what
    /// it has written so far: for a large model, rendering the description
    /// and deflating it take about as long as each other.
    Written(&'a (dyn Fn(&mut dyn Write) -> std::io::Result<()> + Sync)),
    /// [`Contents::Written`] for a text of hundreds of megabytes (a large
    /// model's description), deflated at [`LARGE_DEFLATE_LEVEL`]: deflating
    /// it is the longest step of writing the archive.
    WrittenLarge(&'a (dyn Fn(&mut dyn Write) -> std::io::Result<()> + Sync)),
}

impl std::fmt::Debug for Contents<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Contents::Bytes(b) => write!(f, "{} bytes", b.len()),
            Contents::Written(_) | Contents::WrittenLarge(_) => {
                f.write_str("written by a function")
            }
        }
    }
}

impl<'a> From<Cow<'a, [u8]>> for Contents<'a> {
    fn from(bytes: Cow<'a, [u8]>) -> Self {
        Contents::Bytes(bytes)
    }
}

impl<'a> From<&'a [u8]> for Contents<'a> {
    fn from(bytes: &'a [u8]) -> Self {
        Contents::Bytes(Cow::Borrowed(bytes))
    }
}

impl From<Vec<u8>> for Contents<'_> {
    fn from(bytes: Vec<u8>) -> Self {
        Contents::Bytes(Cow::Owned(bytes))
    }
}

/// Writes `entries` as a zip to `out`, replacing any file there only when
/// the new archive is complete. Creates the parent directory if missing.
/// Returns the size of the archive in bytes.
pub fn write_archive_atomically(
    out: &Path,
    mut entries: Vec<ArchiveEntry<'_>>,
) -> Result<u64, PackageError> {
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    if let Some(pair) = entries.windows(2).find(|p| p[0].path == p[1].path) {
        return Err(PackageError::InvalidSpec(format!(
            "two archive entries are named `{}`",
            pair[0].path
        )));
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let file_name = out.file_name().ok_or_else(|| {
        PackageError::InvalidSpec(format!("`{}` is not a file path", out.display()))
    })?;
    std::fs::create_dir_all(parent).map_err(|e| io_error("creating directory", parent, e))?;

    // The temporary file is removed when dropped, i.e. on every error path.
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{}.", file_name.to_string_lossy()))
        .suffix(".tmp")
        .tempfile_in(parent)
        .map_err(|e| io_error("creating a temporary file in", parent, e))?;
    write_zip(temp.as_file_mut(), &entries).map_err(|e| match e {
        ZipFailure::Io(e) => io_error("writing", out, e),
        ZipFailure::Zip(e) => PackageError::Zip {
            path: out.to_path_buf(),
            source: e,
        },
    })?;
    temp.as_file()
        .sync_all()
        .map_err(|e| io_error("writing", out, e))?;
    let size = temp
        .as_file()
        .metadata()
        .map_err(|e| io_error("writing", out, e))?
        .len();
    // Temporary files are private (0600); an FMU is an ordinary file.
    std::fs::set_permissions(temp.path(), Permissions::from_mode(0o644))
        .map_err(|e| io_error("setting permissions of", temp.path(), e))?;
    temp.persist(out)
        .map_err(|e| io_error("replacing", out, e.error))?;
    Ok(size)
}

enum ZipFailure {
    Io(std::io::Error),
    Zip(zip::result::ZipError),
}

impl From<std::io::Error> for ZipFailure {
    fn from(e: std::io::Error) -> Self {
        ZipFailure::Io(e)
    }
}

impl From<zip::result::ZipError> for ZipFailure {
    fn from(e: zip::result::ZipError) -> Self {
        ZipFailure::Zip(e)
    }
}

/// Deflate level of every entry. With the zlib-rs back end, level 5 makes
/// a model description exactly as small as level 6 in 60 % of the time
/// (measured on the rod's 150 MB description at 2·10^5 volumes: 5.30 MB
/// either way, 0.26 s against 0.43 s); the other entries differ by bytes.
/// Below 4 the description grows (level 3: 5 % larger, level 1: 76 %).
const DEFLATE_LEVEL: i64 = 5;
/// Deflate level of the entries under `resources/`: mofmu's system image,
/// binary tables (starts, offsets, names) where level 1 comes within 8 % of
/// level 5's size in about half its time (the chain at n = 10^5: a 50 MB
/// resource, 6.9 MB against 6.4 MB).
const RESOURCE_DEFLATE_LEVEL: i64 = 1;
/// Deflate level of a [`Contents::WrittenLarge`] entry. The transmission
/// line at N = 10^5 has a 433 MB description, rendered on one thread and
/// deflated on another: at level 4 the deflating is the slower of the two
/// (1.2-1.3 s for the entry), at level 3 the entry takes 0.8-1.1 s and is
/// 0.8 % larger (17.66 MB against 17.53 MB).
const LARGE_DEFLATE_LEVEL: i64 = 3;

fn write_zip<W: Write + Seek>(file: W, entries: &[ArchiveEntry<'_>]) -> Result<(), ZipFailure> {
    let mut zip = ZipWriter::new(file);
    let base = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .compression_level(Some(DEFLATE_LEVEL))
        .last_modified_time(DateTime::default());
    for entry in entries {
        let mode = if entry.executable { 0o755 } else { 0o644 };
        let level = if entry.path.starts_with("resources/") {
            RESOURCE_DEFLATE_LEVEL
        } else if matches!(entry.bytes, Contents::WrittenLarge(_)) {
            LARGE_DEFLATE_LEVEL
        } else {
            DEFLATE_LEVEL
        };
        zip.start_file(
            entry.path.as_str(),
            base.unix_permissions(mode).compression_level(Some(level)),
        )?;
        match &entry.bytes {
            Contents::Bytes(bytes) => zip.write_all(bytes)?,
            Contents::Written(write) | Contents::WrittenLarge(write) => {
                write_rendered(&mut zip, *write)?
            }
        }
    }
    zip.finish()?.flush()?;
    Ok(())
}

/// The size of the pieces a rendering thread hands to the compressor: large
/// enough that the hand-over costs nothing next to deflating a piece, small
/// enough that the few in flight take no memory worth counting.
const PIECE: usize = 1 << 16;
/// Pieces in flight between the rendering thread and the compressor.
const PIECES_IN_FLIGHT: usize = 8;

/// Runs `write` on a scoped thread and deflates its output into the open
/// entry of `zip` as it comes. Either side's failure ends both: a failed
/// write into the archive drops the receiver, so the renderer's next
/// hand-over fails; a failed render ends the channel and its error is
/// returned after the pieces before it are written.
fn write_rendered<W: Write + Seek>(
    zip: &mut ZipWriter<W>,
    write: &(dyn Fn(&mut dyn Write) -> std::io::Result<()> + Sync),
) -> Result<(), ZipFailure> {
    let (send, receive) = std::sync::mpsc::sync_channel::<Vec<u8>>(PIECES_IN_FLIGHT);
    // Deflated pieces go back to the renderer to be filled again: a fresh
    // piece per 64 KiB of a 300 MB description is memory the allocator
    // frees and maps again, and the kernel zeroes again, thousands of times.
    let (give_back, taken_back) = std::sync::mpsc::sync_channel::<Vec<u8>>(PIECES_IN_FLIGHT + 2);
    std::thread::scope(|scope| {
        let renderer = scope.spawn(move || {
            let mut pieces = Pieces {
                piece: Vec::with_capacity(PIECE),
                send,
                spare: taken_back,
            };
            write(&mut pieces)?;
            pieces.hand_over()
        });
        let mut written: std::io::Result<()> = Ok(());
        for mut piece in receive {
            written = zip.write_all(&piece);
            if written.is_err() {
                break;
            }
            piece.clear();
            // A full return channel or a finished renderer: the piece is
            // simply dropped.
            let _ = give_back.try_send(piece);
        }
        let rendered = renderer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        // The archive's error first: when it failed, the renderer only
        // saw the channel close.
        written?;
        rendered?;
        Ok(())
    })
}

/// A writer that gathers bytes into pieces and sends each full piece.
struct Pieces {
    piece: Vec<u8>,
    send: std::sync::mpsc::SyncSender<Vec<u8>>,
    /// Pieces the compressor has deflated, empty, to be filled again.
    spare: std::sync::mpsc::Receiver<Vec<u8>>,
}

impl Pieces {
    fn hand_over(&mut self) -> std::io::Result<()> {
        if self.piece.is_empty() {
            return Ok(());
        }
        let next = self
            .spare
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(PIECE));
        let full = std::mem::replace(&mut self.piece, next);
        self.send.send(full).map_err(|_| {
            std::io::Error::new(
                std::io::ErrorKind::BrokenPipe,
                "the archive stopped taking the entry",
            )
        })
    }
}

impl Write for Pieces {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let room = PIECE - self.piece.len();
        let taken = bytes.len().min(room);
        self.piece.extend_from_slice(&bytes[..taken]);
        if self.piece.len() == PIECE {
            self.hand_over()?;
        }
        Ok(taken)
    }

    /// The description is written in many small pieces (a name, an
    /// attribute, a quote): those that fit are one copy, without the
    /// default loop over `write`.
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        if bytes.len() < PIECE - self.piece.len() {
            self.piece.extend_from_slice(bytes);
            return Ok(());
        }
        let mut rest = bytes;
        while !rest.is_empty() {
            let taken = self.write(rest)?;
            rest = &rest[taken..];
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
