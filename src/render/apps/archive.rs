//! Deterministic archives: the same files give the same bytes, whenever
//! and wherever they are made. Files are written in the order given,
//! with a fixed time and mode, and nothing of the machine.
//!
//! - [`tgz`]: a POSIX ustar archive, gzipped, as npm packs a package
//!   (every path under `package/`, npm's fixed time 1985-10-26 08:15 UTC).
//! - [`zip`]: a zip of deflated entries with their CRC-32, dated
//!   1980-01-01 (served as it is: a compressed body gets no coding).

use std::io::Write;

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
    let mut gz = flate2::GzBuilder::new()
        .mtime(0)
        .write(Vec::new(), flate2::Compression::best());
    gz.write_all(&tar).expect("writing to memory");
    gz.finish().expect("writing to memory")
}

/// A zip of `files` (path, bytes), each entry deflated.
pub fn zip(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    // 1980-01-01 00:00, MS-DOS format.
    const TIME: u16 = 0;
    const DATE: u16 = 1 << 5 | 1;
    let mut out = Vec::new();
    let mut central = Vec::new();
    // One compressor for every entry: a new one zeroes a quarter of a
    // megabyte of tables, which for an asset catalogue's small files cost
    // more than the compressing (a fifth of `marque check`).
    let mut deflater = flate2::Compress::new(flate2::Compression::default(), false);
    for (path, bytes) in files {
        let crc = crc32fast::hash(bytes);
        let offset = out.len() as u32;
        let size = bytes.len() as u32;
        let mut packed = Vec::with_capacity(bytes.len() / 2 + 64);
        crate::bodies::deflate(&mut deflater, bytes, &mut packed);
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
        assert_eq!(&z[..4], b"PK\x03\x04");
        assert_eq!(&z[z.len() - 22..z.len() - 18], b"PK\x05\x06");
    }
}
