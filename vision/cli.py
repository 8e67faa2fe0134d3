"""`companion vision ...`: scan images, print the marker sheet, calibrate, benchmark, teach, forget what was taught."""
from __future__ import annotations

import json
import sys
from pathlib import Path

THOROUGH_HELP = "also look for cards whose outline was lost, along straight edges (slower)"


def register(subparsers) -> None:
    vision = subparsers.add_parser("vision", help="recognise Nightmarium cards with the camera",
                                   description="Recognise real Nightmarium cards on the table.")
    commands = vision.add_subparsers(dest="vision_command", metavar="VISION_COMMAND")
    vision.set_defaults(handler=lambda args: (vision.print_help(), 2)[1])

    scan = commands.add_parser("scan", help="recognise the cards in image files",
                               description="Recognise the cards in each image; one line per image.")
    scan.add_argument("images", nargs="+", metavar="IMAGE")
    scan.add_argument("--json", action="store_true", help="print one JSON object per image, one per line")
    scan.add_argument("--calibration", metavar="FILE", help="table calibration (adds seat, creature and slot)")
    scan.add_argument("--debug-out", metavar="DIR", help="write annotated copies of the images here")
    scan.add_argument("--params", metavar="FILE", help="recogniser parameters (default: taught, else built-in)")
    scan.add_argument("--thorough", action="store_true", help=THOROUGH_HELP)
    scan.add_argument("--lens", metavar="FILE",
                      help="straighten with this lens correction (default: the one `companion vision lens` saved)")
    scan.set_defaults(handler=_scan)

    markers = commands.add_parser("markers", help="write the printable ArUco marker sheet",
                                  description="Write an A4 sheet with the four table-corner markers.")
    markers.add_argument("--out", required=True, metavar="FILE", help="image file to write (.png)")
    markers.add_argument("--dpi", type=int, default=150)
    markers.set_defaults(handler=_markers)

    lens = commands.add_parser("lens", help="measure a wide-angle lens, so that its pictures are straightened",
                               description="Print the chessboard (--sheet), lay it flat on the table in the middle "
                                           "of the camera's view and towards each corner and side, take a picture of "
                                           "each (e.g. rpicam-still -o board1.jpg --width 1640 --height 1232), and "
                                           "give the pictures: the lens is measured and saved, and the camera and "
                                           "`companion vision scan` straighten every picture with it from then on.")
    lens.add_argument("pictures", nargs="*", metavar="PICTURE", help="pictures of the chessboard, or folders of them")
    lens.add_argument("--sheet", metavar="FILE", help="write the printable chessboard (A4, landscape) and stop")
    lens.add_argument("--dpi", type=int, default=150, help="of the sheet")
    lens.add_argument("--out", metavar="FILE", help="where to save the correction (default: where the camera finds it)")
    lens.add_argument("--forget", action="store_true", help="delete the saved correction: read pictures as taken")
    lens.set_defaults(handler=_lens)

    calibrate = commands.add_parser("calibrate", help="write a table calibration file",
                                    description="Find the four table markers in an image, or take four corners "
                                                "given by hand, and write the calibration file.")
    calibrate.add_argument("--image", metavar="IMAGE", help="a camera picture showing all four markers")
    calibrate.add_argument("--corners", nargs=4, metavar="X,Y",
                           help="table corners by hand: near-left near-right far-right far-left (seat 0's view)")
    calibrate.add_argument("--out", required=True, metavar="FILE")
    calibrate.set_defaults(handler=_calibrate)

    bench = commands.add_parser("bench", help="measure recall, precision, accuracy and speed",
                                description="Synthetic 1640x1232 scenes built from the held-out scans, or your "
                                            "own labelled photos (--photos); prints detection and classification "
                                            "figures and per-frame time.")
    bench.add_argument("--photos", metavar="FOLDER",
                       help="score your own pictures instead: FOLDER/labels.jsonl (or a label file) lists each "
                            "picture's cards, one JSON line per picture as `scan --json` prints them, corrected by "
                            "hand; a card under a hand may carry \"covered\": true (docs/vision.md, \"Your own "
                            "photos\")")
    bench.add_argument("--known-scans", action="store_true",
                       help="read as the companion does, with the held-out scans' prints taught "
                            "(vision.known_scans, taught from other scenes of them): how the cards of the 80 scans "
                            "are read at the table, not how cards never seen are")
    bench.add_argument("--lens", metavar="FILE", help="with --photos: straighten with this lens correction "
                                                     "(default: the one `companion vision lens` saved)")
    bench.add_argument("--scenes", type=int, default=60)
    bench.add_argument("--seed", type=int, default=2024)
    bench.add_argument("--repeats", type=int, default=3, help="timed runs per frame (median is kept)")
    bench.add_argument("--training", action="store_true", help="also report on the training scans")
    bench.add_argument("--params", metavar="FILE")
    bench.add_argument("--thorough", action="store_true", help=THOROUGH_HELP)
    bench.add_argument("--phases", action="store_true", help="also print the time spent in each phase of a scan")
    bench.add_argument("--hue", type=float, default=0.0, metavar="DEGREES",
                       help="turn the cards' hues, as another printing or camera shows them")
    bench.add_argument("--saturation", type=float, default=1.0, metavar="SCALE",
                       help="scale the cards' saturation, as another printing or camera shows them")
    bench.add_argument("--touching", action="store_true",
                       help="lay each seat's creatures pushed together side by side, as on a crowded table")
    bench.add_argument("--lone", action="store_true",
                       help="lay one card alone on the table (the deck beside it in 60%% of the scenes), as a game "
                            "starts: no other card to size it by")
    bench.add_argument("--teach-per-legion", type=int, default=0, metavar="N",
                       help="first teach N training cards of each legion, shown with those colours")
    bench.add_argument("--card-widths", type=float, nargs=2, default=(140.0, 330.0), metavar=("MIN", "MAX"),
                       help="the cards' length in pixels (default 140 330, the targets' range): smaller shows what "
                            "a camera hung too high gives")
    bench.add_argument("--frame-scale", type=int, default=1, metavar="K",
                       help="the same tables in pictures K times 1640x1232 each way, as a camera sensor read at full "
                            "resolution gives them (2: 3280x2464, the Pi camera v2's full resolution, whose 1640x1232 "
                            "mode bins 2x2 pixels): --card-widths stays in 1640x1232 pixels; the blur and the noise "
                            "of a sensor read without binning scale with K")
    bench.add_argument("--binned", action="store_true",
                       help="with --frame-scale: the same tables as that sensor's binned mode gives them, each K x K "
                            "block of its pixels averaged into one before the picture is compressed: 1640x1232")
    bench.add_argument("--lens-bend", type=float, default=0.0, metavar="BEND",
                       help="see the scenes through a lens bending straight lines so (vision.lens: -0.05 to -0.1 "
                            "is barrel distortion as a wide-angle lens gives; 0 none)")
    bench.add_argument("--straighten", action="store_true",
                       help="with --lens-bend: first measure the lens from pictures of the chessboard seen through it, "
                            "as `companion vision lens` does, and straighten every frame with it")
    bench.add_argument("--layout", action="store_true",
                       help="draw the table markers, read each scene with the calibration they give, and score the "
                            "cards' seats, creatures and slots")
    bench.add_argument("--against", metavar="CHECKOUT",
                       help="time this checkout's recogniser against the one in another checkout (a folder holding "
                            "its vision/ package), each frame read by both in turn in one process, and print their "
                            "medians and ratio: on a shared machine the steadiest comparison of two codes' speed")
    bench.add_argument("--rounds", type=int, default=3, help="with --against: rounds over the scenes")
    bench.set_defaults(handler=_bench)

    capture = commands.add_parser("capture", help="save camera pictures of your table, to measure on",
                                  description="Save pictures from the camera, numbered after those already in "
                                              "the folder, to label and measure the recogniser on "
                                              "(`companion vision bench --photos FOLDER`). From a synthetic "
                                              "source the true cards are written to FOLDER/labels.jsonl too.")
    capture.add_argument("source", help="picamera, usb:N, a video file, or synthetic[:SEED]")
    capture.add_argument("--out", required=True, metavar="FOLDER")
    capture.add_argument("--count", type=int, default=20, help="pictures to take (default 20)")
    capture.add_argument("--every", type=float, default=2.0, metavar="SECONDS",
                         help="seconds between pictures (default 2: time to move the cards or a hand)")
    capture.add_argument("--png", action="store_true", help="save PNG (lossless, about 8x larger) instead of JPEG")
    capture.set_defaults(handler=_capture)

    teach = commands.add_parser("teach", help="adapt the recogniser to your own cards and light",
                                description="Show your own cards, one per picture, and say which card each "
                                            "is; the recogniser learns their prints and colours and is saved.")
    teach.add_argument("source", help="an image, a folder of images, usb:N or picamera")
    teach.add_argument("--card", type=int, action="append", required=True, metavar="ID",
                       help="card id shown in each successive picture (repeat, in order)")
    teach.add_argument("--out", metavar="FILE", help="where to save the taught parameters")
    teach.add_argument("--retrain", action="store_true",
                       help="retrain every head from the card scans with your cards mixed in (minutes; needs the "
                            "scans): for a printing whose badge figure or icons differ")
    teach.add_argument("--samples", type=int, default=800, help="with --retrain: synthetic training crops to mix in")
    teach.set_defaults(handler=_teach)

    forget = commands.add_parser("forget", help="forget every card taught (back to the built-in recogniser)",
                                 description="Delete the taught parameters and the cards kept for them, so that "
                                             "the built-in recogniser is used again.")
    forget.add_argument("--params", metavar="FILE", help="the taught parameters (the default place unless given)")
    forget.set_defaults(handler=_forget)


def _recogniser(args, calibration=None, lens=None, known_scans: bool = True):
    """The recogniser the companion runs (`known_scans`: the held-out scans' prints taught too), with the given or
    taught parameters; the bench's synthetic scenes measure the model without the held-out scans."""
    from .pipeline import Recogniser
    from .taught import default_params

    return Recogniser(params=args.params or default_params(), calibration=calibration, thorough=args.thorough,
                      lens=lens, known_scans=known_scans)


def _scan(args) -> int:
    import cv2

    from .geometry import CalibrationError, Calibration
    from .pipeline import ScanResult, one_blas_thread

    one_blas_thread()  # the bench sets its own (bench.run)

    calibration = None
    if args.calibration:
        try:
            calibration = Calibration.load(args.calibration)
        except CalibrationError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    lens, lens_error = _saved_lens(args.lens)
    if lens_error:
        print(f"error: {lens_error}", file=sys.stderr)
        return 2
    recogniser = _recogniser(args, calibration, lens)
    if recogniser.model is None:
        print(f"error: {recogniser.model_error}", file=sys.stderr)
        return 2
    debug_dir = Path(args.debug_out) if args.debug_out else None
    if debug_dir:
        debug_dir.mkdir(parents=True, exist_ok=True)
    status = 0
    for path in args.images:
        frame = _read(path)
        result = recogniser.scan(frame) if frame is not None else ScanResult(
            error=f"cannot read {path} (missing, not an image, or damaged)")
        if result.error:
            status = 1
        if args.json:
            print(json.dumps(result.to_json(image=path)), flush=True)
        else:
            print(_summary(path, result, None if frame is None else (frame.shape[1], frame.shape[0])), flush=True)
        if debug_dir and frame is not None:
            from .debug import annotate

            cv2.imwrite(str(debug_dir / (Path(path).stem + ".png")), annotate(frame, result))
    return status


def _saved_lens(given: str | None):
    """(the lens correction given, else the one saved if any, None) or (None, a message where it cannot be read)."""
    from .lens import LensCorrection, LensError, lens_path

    lens_file = Path(given) if given else lens_path() if lens_path().is_file() else None
    if lens_file is None:
        return None, None
    try:
        return LensCorrection.load(lens_file), None
    except LensError as error:
        return None, (f"{error} (measure the lens again with `companion vision lens`, or delete it with "
                      "`companion vision lens --forget`)")


def _read(path: str):
    import cv2
    import numpy as np

    try:
        data = np.fromfile(path, np.uint8)
    except OSError:
        return None
    return cv2.imdecode(data, cv2.IMREAD_UNCHANGED) if data.size else None


def _summary(path: str, result, picture_size: tuple[int, int] | None = None) -> str:
    """The readable lines of one image's reading; where the cards are smaller or larger in the picture than the
    recogniser is measured on (a photo taken to try a camera's mounting), a note on what to change."""
    from .framing import Framing

    if result.error:
        return f"{path}: {result.error}"
    lines = [f"{path}: {len(result.cards)} card(s) in {result.ms:.0f} ms"]
    for card in result.cards:
        centre = [round(sum(p[i] for p in card.corners) / 4) for i in (0, 1)]
        place = f" seat {card.seat} creature {card.creature} {card.slot}" if card.seat is not None else ""
        lines.append(f"  {card.legion:5} {'+'.join(card.parts):17} {card.ability or '-':11} "
                     f"confidence {card.confidence:.2f} at {centre}{place}")
    framing = Framing.of(result.cards, picture_size) if picture_size else None
    if framing is not None and not framing.as_measured:
        lines.append(f"  note: {framing.advice()}")
    return "\n".join(lines)


def _markers(args) -> int:
    import cv2

    from .markers import marker_sheet

    out = Path(args.out)
    if out.parent and not out.parent.exists():
        print(f"error: the folder {out.parent} does not exist", file=sys.stderr)
        return 2
    if not cv2.imwrite(str(out), marker_sheet(args.dpi)):
        print(f"error: could not write {out} (use a .png or .jpg name)", file=sys.stderr)
        return 2
    print(f"wrote {out}: print it at 100% and put each marker at the table corner written under it (seen from seat 0)")
    return 0


def _lens(args) -> int:
    import cv2

    from .lens import (STRAIGHTEN_FROM, LensError, bow_px, bow_share, calibrate, chessboard_sheet, lens_path,
                       straightening)
    from .sources import IMAGE_SUFFIXES

    out = Path(args.out) if args.out else lens_path()
    if args.forget:
        if out.is_file():
            out.unlink()
            print(f"deleted {out}: pictures are read as taken")
        else:
            print(f"no lens correction at {out}: pictures are read as taken already")
        return 0
    if args.sheet:
        sheet = Path(args.sheet)
        if not cv2.imwrite(str(sheet), chessboard_sheet(args.dpi)):
            print(f"error: could not write {sheet} (use a .png name in a folder that exists)", file=sys.stderr)
            return 2
        print(f"wrote {sheet}: print it at 100% on A4, landscape, and keep it flat (tape it to card)")
        return 0
    files = []
    for name in args.pictures:
        path = Path(name)
        files += sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES) if path.is_dir() else [path]
    if not files:
        print("error: give the pictures of the chessboard (or --sheet FILE to print it first)", file=sys.stderr)
        return 2
    pictures = []
    for path in files:
        picture = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
        if picture is None:
            print(f"  {path}: not an image that can be read; left out")
        pictures.append(picture)

    def told(index: int, found: bool) -> None:
        print(f"  {files[index - 1]}: " + ("chessboard found" if found else "no whole chessboard found; left out"))

    try:
        correction = calibrate(pictures, progress=told)
    except LensError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    correction.save(out)
    print(f"saved {out}: straight lines at the picture's edge bow by up to {bow_px(correction):.0f} px "
          f"({100 * bow_share(correction):.1f}% of its height; the chessboard fits the measured lens to "
          f"{correction.error_px:.2f} px)")
    if straightening(correction) is not None:
        print("the camera and `companion vision scan` straighten every picture with it from now on")
    else:
        print(f"that is too little to matter (under {100 * STRAIGHTEN_FROM:g}%): pictures are read as taken")
    return 0


def _calibrate(args) -> int:
    from .geometry import Calibration, CalibrationError
    from .markers import find_table_corners

    if bool(args.image) == bool(args.corners):
        print("error: give either --image or --corners", file=sys.stderr)
        return 2
    try:
        if args.image:
            frame = _read(args.image)
            if frame is None:
                print(f"error: cannot read {args.image}", file=sys.stderr)
                return 2
            from .frames import FrameError, to_bgr8

            try:
                corners = find_table_corners(to_bgr8(frame))
            except FrameError as error:
                print(f"error: {error}", file=sys.stderr)
                return 2
            if corners is None:
                print("error: not all four table markers (ids 0-3) are visible in that picture", file=sys.stderr)
                return 1
            calibration = Calibration.from_json({"table_corners": corners.tolist(),
                                                 "picture_size": [frame.shape[1], frame.shape[0]]})
        else:
            points = [[float(v) for v in corner.split(",")] for corner in args.corners]
            calibration = Calibration.from_json({"table_corners": points})
        calibration.save(args.out)
    except (CalibrationError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"error: cannot write {args.out}: {error.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}")
    return 0


def _bench(args) -> int:
    from . import bench
    from .cards import scans_available

    if args.photos:
        return _bench_photos(args)
    recogniser = _recogniser(args, known_scans=args.known_scans)
    if recogniser.model is None:
        print(f"error: {recogniser.model_error}", file=sys.stderr)
        return 2
    if args.lens:
        print("error: --lens straightens your photos (--photos); the synthetic scenes take --lens-bend",
              file=sys.stderr)
        return 2
    if not scans_available():
        print("note: the card scans are not available; benchmarking on stand-in cards drawn by code")
    printing = (args.hue, args.saturation) if (args.hue, args.saturation) != (0.0, 1.0) else None
    label = f", colours turned {args.hue:g} degrees, saturation x{args.saturation:g}" if printing else ""
    if args.against:
        return _bench_against(args, recogniser, printing, label)
    if args.teach_per_legion > 0:
        import tempfile

        from .pipeline import Recogniser
        from .taught import TeachError

        with tempfile.TemporaryDirectory() as folder:
            try:
                taught = bench.teach_printing(args.teach_per_legion, printing, Path(folder) / "taught.json")
            except TeachError as error:
                print(f"error: {error}", file=sys.stderr)
                return 1
            recogniser = Recogniser(params=taught, thorough=args.thorough, known_scans=args.known_scans)
        label += f", {4 * args.teach_per_legion} training cards taught so"
    if args.known_scans:
        label += f", held-out scans known ({recogniser.model.about.get('known scans')})"
    if args.touching:
        label += ", creatures pushed together"
    if args.lone:
        label += ", one card alone"
    if args.thorough:
        label += ", thorough (straight edges too)"
    if args.lens_bend:
        from .lens import LONGEST_BEND, LensError, bow_share, calibrate, straightening
        from .synthetic import chessboard_pictures

        if not abs(args.lens_bend) < LONGEST_BEND:
            print(f"error: --lens-bend needs a bend between -{LONGEST_BEND} and {LONGEST_BEND}", file=sys.stderr)
            return 2
        label += f", through a lens bending {args.lens_bend:g}"
        if args.straighten:
            try:
                measured = calibrate(chessboard_pictures(args.lens_bend, seed=args.seed))
            except LensError as error:
                print(f"error: {error}", file=sys.stderr)
                return 1
            recogniser.lens = straightening(measured)
            label += f", measured to {measured.error_px:.2f} px, bowing {100 * bow_share(measured):.1f}%: " + \
                ("straightened" if recogniser.lens is not None else "too little to straighten")
    elif args.straighten:
        print("error: --straighten straightens a lens given by --lens-bend", file=sys.stderr)
        return 2
    widths = tuple(args.card_widths)
    if not 0 < widths[0] <= widths[1]:
        print("error: --card-widths needs MIN and MAX with 0 < MIN <= MAX", file=sys.stderr)
        return 2
    if not 1 <= args.frame_scale <= MAX_FRAME_SCALE:
        print(f"error: --frame-scale needs a whole number from 1 to {MAX_FRAME_SCALE}", file=sys.stderr)
        return 2
    if args.binned and args.frame_scale == 1:
        print("error: --binned gives the pictures of a sensor with more pixels (--frame-scale 2 or more) in its "
              "binned mode", file=sys.stderr)
        return 2
    if args.frame_scale > 1:
        from .synthetic import FRAME_SIZE

        width, height = FRAME_SIZE
        label += f", pictures {width * args.frame_scale}x{height * args.frame_scale}" + \
            (f" binned {args.frame_scale}x{args.frame_scale} to {width}x{height}" if args.binned else "")
    if args.layout:
        label += ", table markers drawn and seats scored"
    scan_sets = [(True, args.seed, f"held-out scans, {args.scenes} scenes, seed {args.seed}, card widths "
                                   f"{widths[0]:g}-{widths[1]:g} px")]
    if args.training:
        scan_sets.append((False, args.seed + 1, f"training scans, {args.scenes} scenes, seed {args.seed + 1}"))
    for heldout, seed, name in scan_sets:
        mistakes: list[str] = []
        tally = bench.run(args.scenes, seed, args.repeats, heldout=heldout, recogniser=recogniser, printing=printing,
                          touching=args.touching, width_range=widths, lens=args.lens_bend, layout=args.layout,
                          mistakes=mistakes, lone=args.lone, pixel_scale=args.frame_scale, binned=args.binned)
        print(bench.report(tally, name + label, phases=args.phases))
        _print_mistakes("read wrong surely", mistakes)
    return 0


MISTAKES_SHOWN = 50  # lines of `bench`'s lists of what was read wrong
MAX_FRAME_SCALE = 2  # `bench --frame-scale`: beyond it, pictures pass the recogniser's limit (vision.frames.MAX_SIDE)


def _print_mistakes(title: str, mistakes: list[str]) -> None:
    if mistakes:
        print(f"  {title} ({len(mistakes)}):")
        for line in mistakes[:MISTAKES_SHOWN]:
            print(f"    {line}")
        if len(mistakes) > MISTAKES_SHOWN:
            print(f"    ... and {len(mistakes) - MISTAKES_SHOWN} more")


def _bench_photos(args) -> int:
    from . import bench
    from .photos import LabelError, read_labels, run_photos

    try:
        photos = read_labels(args.photos)
    except LabelError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    lens, lens_error = _saved_lens(args.lens)
    if lens_error:
        print(f"error: {lens_error}", file=sys.stderr)
        return 2
    recogniser = _recogniser(args, lens=lens)
    if recogniser.model is None:
        print(f"error: {recogniser.model_error}", file=sys.stderr)
        return 2
    if args.repeats < 1:
        print("error: --repeats needs at least 1", file=sys.stderr)
        return 2

    def told(done: int, total: int) -> None:
        print(f"\r  read {done} of {total} pictures", end="\n" if done == total else "", file=sys.stderr, flush=True)

    mistakes: list[str] = []
    tally = run_photos(photos, recogniser, args.repeats, progress=told, mistakes=mistakes)
    cards = sum(len(photo.cards) for photo in photos)
    straightened = ", straightened with the saved lens" if recogniser.lens is not None else ""
    print(bench.report(tally, f"your photos ({args.photos}): {len(photos)} pictures, {cards} cards labelled"
                              + straightened))
    _print_mistakes("what was read wrong", mistakes)
    return 1 if tally.errors else 0


def _capture(args) -> int:
    from .photos import capture
    from .sources import CameraError, open_source

    if args.count < 1 or args.every < 0:
        print("error: --count needs at least 1 and --every 0 or more seconds", file=sys.stderr)
        return 2
    try:
        source = open_source(args.source)
    except CameraError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2

    def told(done: int, total: int, path: Path) -> None:
        print(f"  saved {path} ({done} of {total})", flush=True)

    print(f"taking {args.count} picture(s) from {source.describe()}, {args.every:g} s apart, into {args.out}")
    try:
        saved = capture(source, args.out, args.count, args.every, ".png" if args.png else ".jpg", told=told)
    except CameraError as error:
        kept = len(getattr(error, "saved", []))
        print(f"error: {error} ({kept} picture(s) saved before it are kept)", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"error: cannot save into {args.out}: {error}", file=sys.stderr)
        return 1
    finally:
        source.close()
    print(f"saved {len(saved)} picture(s). Label them (docs/vision.md, \"Your own photos\"), then measure: "
          f"companion vision bench --photos {args.out}")
    return 0


def _bench_against(args, recogniser, printing, label: str) -> int:
    """`bench --against`: the held-out scenes read by this checkout's recogniser and another's, in turn."""
    from .bench import one_core, scene_generator
    from .in_turn import InTurnError, load_recogniser_class, round_line, summary_line, time_in_turn

    unsupported = [flag for flag, given in (("--layout", args.layout), ("--lens-bend", args.lens_bend),
                                            ("--teach-per-legion", args.teach_per_legion > 0),
                                            ("--training", args.training), ("--phases", args.phases)) if given]
    if unsupported:
        print(f"error: --against times plain held-out scenes; it does not take {', '.join(unsupported)}",
              file=sys.stderr)
        return 2
    widths = tuple(args.card_widths)
    if args.scenes < 1 or args.rounds < 1 or args.repeats < 1 or not 0 < widths[0] <= widths[1]:
        print("error: --against needs at least one scene, round and repeat, and card widths 0 < MIN <= MAX",
              file=sys.stderr)
        return 2
    try:
        theirs = load_recogniser_class(args.against)()
    except InTurnError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    one_core()

    def frames():
        """The same scenes each round, made as they are read (a 1640x1232 frame is 6 MB)."""
        generator = scene_generator(args.seed, printing=printing, touching=args.touching)
        return (generator.random_scene(width_range=widths).frame for _ in range(args.scenes))

    readings = "one reading" if args.repeats == 1 else f"the fastest of {args.repeats} readings"
    print(f"held-out scans, {args.scenes} scenes, seed {args.seed}, card widths {widths[0]:g}-{widths[1]:g} px"
          f"{label}{', creatures pushed together' if args.touching else ''}: ours (this checkout) against theirs "
          f"({args.against}), in turn, {readings} a frame", flush=True)
    rounds = []
    for number in range(args.rounds):
        rounds.append(time_in_turn(frames(), recogniser, theirs, args.repeats))
        print(round_line(number + 1, rounds[-1]), flush=True)
    print(summary_line(rounds))
    return 0


def _teach(args) -> int:
    from .sources import CameraError, open_source
    from .taught import TeachError, teach

    try:
        source = open_source(args.source)
    except CameraError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        path = teach(source, args.card, out=args.out, samples=args.samples, progress=print, retrain=args.retrain)
    except (TeachError, CameraError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        source.close()
    print(f"saved the taught recogniser to {path}; `companion vision scan` uses it from now on")
    return 0


def _forget(args) -> int:
    from pathlib import Path

    from .taught import TeachError, forget_taught, taught_path

    path = Path(args.params) if args.params else taught_path()
    try:
        count = forget_taught(path)
    except TeachError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"forgot {count} taught card(s) and {path}; the built-in recogniser is used from now on")
    return 0
