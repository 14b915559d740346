// Readers of the published IQA dataset layouts (read_dataset() in datasets/dataset.h picks one).
// Each throws InputError with FILE:LINE for a malformed score file; an image named by the score
// file but absent stays in the list (find_missing_images() reports it).
//
// TID2013 / TID2008 (Ponomarenko et al.):
//   mos_with_names.txt   "MOS NAME" per line, e.g. "5.51429 I01_01_1.bmp"
//   or mos.txt           one MOS per line, in the order of the names I<ref>_<type>_<level>
//                        sorted by reference, type, level (the grid is read off
//                        distorted_images/: 25x24x5 = 3000 for TID2013, 25x17x4 = 1700 for
//                        TID2008, or whatever the folder holds)
//   reference_images/    I01.BMP ... (a distorted image's reference is I<ref> with the same
//                        extension family), distorted_images/  i01_01_1.bmp ...
//   File names match in any case. MOS: higher = better.
// KADID-10k (Lin et al. 2019):
//   dmos.csv with header dist_img,ref_img,dmos,var and images/ holding both. Despite its name
//   the score is a mean opinion (1..5): higher = better. Type = the middle field of
//   I<ref>_<type>_<level>.png.
// CSIQ (Larson & Chandler 2010): the DMOS sheet of csiq.DMOS.xlsx exported as CSV (any file
//   name ending in .csv at the root; `--manifest` picks one) with a header containing the
//   columns image, dst_type, dst_lev, dmos (other columns ignored, any order), e.g.
//       image,dst_type,dst_idx,dst_lev,dmos_std,dmos
//       1600,noise,1,1,0.0133,0.062
//   src_imgs/<image>.png and dst_imgs/<folder>/<image>.<TAG>.<lev>.png, where dst_type maps to
//   (folder, TAG): noise/awgn -> (awgn, AWGN), jpeg -> (jpeg, JPEG), jpeg 2000/jpeg2000 ->
//   (jpeg2000, jpeg2000), fnoise/"1/f noise" -> (fnoise, fnoise), blur -> (blur, BLUR),
//   contrast -> (contrast, contrast). DMOS: higher = worse.
// LIVE Release 2 (Sheikh et al.): dmos_realigned.mat (dmos_new, orgs) or dmos.mat (dmos,
//   orgs), refnames_all.mat (refnames_all), refimgs/, and the folders jp2k, jpeg, wn, gblur,
//   fastfading, each with info.txt ("REF imgN.bmp PARAM" per line). The score vectors run over
//   the folders in that order, imgN at position N. Entries with orgs = 1 are the references
//   themselves and are skipped. Needs libmatio at build time. DMOS: higher = worse.
#pragma once

#include "datasets/dataset.h"

namespace mad::datasets {

Dataset read_tid(const std::string& root, DatasetKind kind);  // Tid2013 or Tid2008
Dataset read_kadid(const std::string& root);
Dataset read_csiq(const std::string& root, const std::string& sheet);  // sheet "" = find it
Dataset read_live(const std::string& root);

// What a reader starts from: no entries yet, the layout's kind and root, and the name and
// direction of its subjective score.
Dataset empty_dataset(DatasetKind kind, const std::string& root, const std::string& score_name,
                      bool higher_is_better);

// Generic manifest: a CSV with a header naming ref, dist and score (aliases: mos, dmos), and
// optionally type and level; relative paths resolve against the manifest's folder. The score
// direction comes from `higher_is_better` or, failing that, a comment line
// "# higher_is_better: true|false" before the header; with neither it is an error (a wrong
// guess would flip every reported sign).
Dataset read_manifest(const std::string& manifest, std::optional<bool> higher_is_better);

// True when this build can read LIVE's .mat files (libmatio found at configure time).
bool live_mat_supported();

// The TID distortion type names (index 1..24; TID2008 uses the first 17), KADID-10k's 25.
std::string tid_type_name(int type);
std::string kadid_type_name(int type);

}  // namespace mad::datasets
