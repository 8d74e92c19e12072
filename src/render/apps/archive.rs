//! Deterministic archives: the same files give the same bytes, whenever
//! and wherever they are made. Files are written in the order given,
//! with a fixed time and mode, and nothing of the machine.
//!
//! - [`tgz`]: a POSIX ustar archive, gzipped, as npm packs a package
//!   (every path under `package/`, npm's fixed time 1985-10-26 08:15 UTC).
//! - [`zip`]: a zip of deflated entries with their CRC-32, dated
//!   1980-01-01 (served as it is: a compressed body gets no coding).
//!
//! [`unzip`] reads a zip back (a Figma export `marque import` is given):
//! stored and deflated entries, names checked, sizes bounded.

/// npm's fixed modification time for packed files (1985-10-26T08:15:00Z).
const NPM_TIME: u64 = 499_162_500;

fn octal(out: &mut [u8], value: u64) {
    let digits = format!("{value:0width$o}", width = out.len() - 1);
    out[..digits.len()].copy_from_slice(digits.as_bytes());
    out[out.len() - 1] = 0;
}

/// A gzipped tar of `files` (path, bytes).
pub fn tgz(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut tar = Vec::new();
    for (path, bytes) in files {
        let mut h = [0u8; 512];
        let name = path.as_bytes();
        h[..name.len().min(100)].copy_from_slice(&name[..name.len().min(100)]);
        octal(&mut h[100..108], 0o644);
        octal(&mut h[108..116], 0);
        octal(&mut h[116..124], 0);
        octal(&mut h[124..136], bytes.len() as u64);
        octal(&mut h[136..148], NPM_TIME);
        h[148..156].copy_from_slice(b"        ");
        h[156] = b'0';
        h[257..263].copy_from_slice(b"ustar\0");
        h[263..265].copy_from_slice(b"00");
        let sum: u64 = h.iter().map(|b| u64::from(*b)).sum();
        let digits = format!("{sum:06o}\0 ");
        h[148..156].copy_from_slice(digits.as_bytes());
        tar.extend_from_slice(&h);
        tar.extend_from_slice(bytes);
        tar.resize(tar.len().div_ceil(512) * 512, 0);
    }
    tar.resize(tar.len() + 1024, 0);
    // flate2's `GzBuilder` with no time writes the same bytes.
    crate::bodies::gzip(&tar, 9)
}

/// A zip of `files` (path, bytes), each entry deflated.
pub fn zip(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    // 1980-01-01 00:00, MS-DOS format.
    const TIME: u16 = 0;
    const DATE: u16 = 1 << 5 | 1;
    let mut out = Vec::new();
    let mut central = Vec::new();
    // The thread's compressor for every entry of every archive: a new one
    // zeroes a quarter of a megabyte of tables, which for an asset
    // catalogue's small files cost more than the compressing.
    for (path, bytes) in files {
        let crc = crc32fast::hash(bytes);
        let offset = out.len() as u32;
        let size = bytes.len() as u32;
        let mut packed = Vec::with_capacity(bytes.len() / 2 + 64);
        crate::bodies::deflate_at(6, bytes, &mut packed);
        let packed_size = packed.len() as u32;
        let name = path.as_bytes();
        // Bit 11: the name is UTF-8 (a colour set named `color-größe`);
        // without it unzip, Python and Windows read it as CP437.
        let flags: u16 = if path.is_ascii() { 0 } else { 1 << 11 };
        let local = |v: &mut Vec<u8>| {
            v.extend_from_slice(&20u16.to_le_bytes()); // version needed
            v.extend_from_slice(&flags.to_le_bytes());
            v.extend_from_slice(&8u16.to_le_bytes()); // deflated
            v.extend_from_slice(&TIME.to_le_bytes());
            v.extend_from_slice(&DATE.to_le_bytes());
            v.extend_from_slice(&crc.to_le_bytes());
            v.extend_from_slice(&packed_size.to_le_bytes());
            v.extend_from_slice(&size.to_le_bytes());
            v.extend_from_slice(&(name.len() as u16).to_le_bytes());
            v.extend_from_slice(&0u16.to_le_bytes()); // extra
        };
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        local(&mut out);
        out.extend_from_slice(name);
        out.extend_from_slice(&packed);
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&20u16.to_le_bytes()); // made by
        local(&mut central);
        central.extend_from_slice(&0u16.to_le_bytes()); // comment
        central.extend_from_slice(&0u16.to_le_bytes()); // disk
        central.extend_from_slice(&0u16.to_le_bytes()); // internal attributes
        central.extend_from_slice(&0u32.to_le_bytes()); // external attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name);
    }
    let at = out.len() as u32;
    let entries = files.len() as u16;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&entries.to_le_bytes());
    out.extend_from_slice(&entries.to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&at.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

/// The files of a zip (path, bytes), in the archive's order: stored or
/// deflated entries, folders and macOS's `__MACOSX/` left out. An entry
/// whose name climbs out of the archive (`..`, a leading `/`), or a whole
/// past `max_bytes` unpacked, is an error, as is a zip that does not
/// read as one.
pub fn unzip(bytes: &[u8], max_bytes: usize) -> Result<Vec<(String, Vec<u8>)>, String> {
    let u16_at = |at: usize| -> Result<u16, String> {
        bytes
            .get(at..at + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .ok_or_else(|| "the zip ends early".to_string())
    };
    let u32_at = |at: usize| -> Result<u32, String> {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| "the zip ends early".to_string())
    };
    // The end of central directory record: 22 bytes, then a comment of up
    // to 65535.
    let from = bytes.len().saturating_sub(22 + 65_535);
    let end = (from..bytes.len().saturating_sub(21))
        .rev()
        .find(|&i| bytes[i..i + 4] == 0x0605_4b50u32.to_le_bytes())
        .ok_or("not a zip file (no end of central directory)")?;
    let entries = usize::from(u16_at(end + 10)?);
    let mut at = u32_at(end + 16)? as usize;
    let mut out = Vec::new();
    let mut total = 0usize;
    for _ in 0..entries {
        if u32_at(at)? != 0x0201_4b50 {
            return Err("the zip's central directory is damaged".into());
        }
        let method = u16_at(at + 10)?;
        let packed = u32_at(at + 20)? as usize;
        let size = u32_at(at + 24)? as usize;
        let name_len = usize::from(u16_at(at + 28)?);
        let extra = usize::from(u16_at(at + 30)?);
        let comment = usize::from(u16_at(at + 32)?);
        let local = u32_at(at + 42)? as usize;
        let name = bytes
            .get(at + 46..at + 46 + name_len)
            .ok_or("the zip ends early")?;
        let name = String::from_utf8_lossy(name).replace('\\', "/");
        at += 46 + name_len + extra + comment;
        if name.ends_with('/') || name.starts_with("__MACOSX/") {
            continue;
        }
        if name.starts_with('/') || name.split('/').any(|s| s == ".." || s.is_empty()) {
            return Err(format!("the zip's entry `{name}` names a path outside it"));
        }
        total += size;
        if total > max_bytes {
            return Err(format!("the zip unpacks to more than {max_bytes} bytes"));
        }
        let start =
            local + 30 + usize::from(u16_at(local + 26)?) + usize::from(u16_at(local + 28)?);
        let data = bytes
            .get(start..start + packed)
            .ok_or("the zip ends early")?;
        let body = match method {
            0 => data.to_vec(),
            8 => {
                let mut body = Vec::with_capacity(size);
                let reader = flate2::read::DeflateDecoder::new(data);
                std::io::Read::read_to_end(&mut std::io::Read::take(reader, size as u64 + 1), &mut body)
                    .map_err(|e| format!("the zip's entry `{name}` does not inflate: {e}"))?;
                if body.len() != size {
                    return Err(format!("the zip's entry `{name}` is not the size it says"));
                }
                body
            }
            m => return Err(format!("the zip's entry `{name}` is compressed with method {m}, which marque does not read (stored and deflated are)")),
        };
        out.push((name, body));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_files_give_the_same_bytes_and_valid_headers() {
        let files = vec![
            ("package/package.json".to_string(), b"{}".to_vec()),
            (
                "package/tokens.js".to_string(),
                b"export default {};\n".to_vec(),
            ),
        ];
        assert_eq!(tgz(&files), tgz(&files));
        assert_eq!(zip(&files), zip(&files));
        // The tar's checksum: the header's bytes with the field as spaces.
        let packed = tgz(&files);
        let mut gz = flate2::read::GzDecoder::new(&packed[..]);
        let mut tar = Vec::new();
        std::io::Read::read_to_end(&mut gz, &mut tar).unwrap();
        let header = &tar[..512];
        let mut blank = header.to_vec();
        blank[148..156].copy_from_slice(b"        ");
        let sum: u64 = blank.iter().map(|b| u64::from(*b)).sum();
        let written = std::str::from_utf8(&header[148..154]).unwrap();
        assert_eq!(u64::from_str_radix(written, 8).unwrap(), sum);
        assert_eq!(&tar[512..514], b"{}");
        let z = zip(&files);
        assert_eq!(unzip(&z, 1 << 20).unwrap(), files);
        assert_eq!(&z[..4], b"PK\x03\x04");
        assert_eq!(&z[z.len() - 22..z.len() - 18], b"PK\x05\x06");
    }
}
