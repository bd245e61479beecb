//! Lessons as files (issue 36), as a teacher uses them: `barrierscope lesson check` passes the
//! built-in lessons and the hand-written one and fails a broken one; `print` gives back the file
//! and `link` a link that decodes to it; and every message the book lists for a broken file is the
//! message the page shows for it.
#![cfg(not(target_arch = "wasm32"))]

mod cli;
use barrierscope::classroom::{curriculum, from_base64url, lesson_file, LoadError, Notice, Origin, Session};
use barrierscope::engine::Lang;
use cli::runner;

const HAND_WRITTEN: &str = include_str!("fixtures/lessons/hand-written.json");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

#[test]
fn lesson_check_passes_the_built_in_and_hand_written_lessons_and_fails_a_broken_one() {
    let fixture = format!("{ROOT}/tests/fixtures/lessons/hand-written.json");
    let (code, out, err) = runner(&["lesson", "check", "--built-in", &fixture]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().filter(|l| l.ends_with(": ok")).count(), curriculum::FILES.len() + 1, "{out}");
    assert!(
        out.contains("append-twice \"An append sink writes c twice\": 4 steps, 2 claims, 1 expected answers: ok"),
        "{out}"
    );
    let dir = std::env::temp_dir().join(format!("barrierscope-lessons-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wrong = dir.join("wrong.json");
    std::fs::write(&wrong, HAND_WRITTEN.replace("\"duplicated\": [\"c\"]", "\"duplicated\": [\"b\"]")).unwrap();
    let (code, _, err) = runner(&["lesson", "check", wrong.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("1 wrong")
            && err.contains("step 4: the engine's answer differs from \"expect\": lost [], duplicated [\"c\"]"),
        "{err}"
    );
    let broken = dir.join("broken.json");
    std::fs::write(
        &broken,
        HAND_WRITTEN.replace("\"read Source x2\", \"checkpoint\"", "\"reed Source x2\", \"checkpoint\""),
    )
    .unwrap();
    let (code, _, err) = runner(&["lesson", "check", broken.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "not a valid lesson file: step 2, \"play\": line 1: \"reed Source x2\": unknown script word \"reed\""
        ),
        "{err}"
    );
}

#[test]
fn print_gives_the_file_and_link_a_link_to_it() {
    let (code, out, _) = runner(&["lesson", "print", "barrier"]);
    assert_eq!(code, 0);
    assert_eq!(out, std::fs::read_to_string(format!("{ROOT}/lessons/04-barrier.json")).unwrap());
    let (code, list, _) = runner(&["lesson", "list"]);
    assert_eq!((code, list.lines().count()), (0, curriculum::FILES.len()));
    let (code, _, err) = runner(&["lesson", "print", "nope"]);
    assert!(code == 2 && err.contains("no built-in lesson is called \"nope\""), "{err}");
    let fixture = format!("{ROOT}/tests/fixtures/lessons/hand-written.json");
    let (code, link, _) = runner(&["lesson", "link", &fixture, "--base", "http://127.0.0.1:8080/"]);
    assert_eq!(code, 0);
    let body = link.trim().strip_prefix("http://127.0.0.1:8080/#lesson=").expect("the link");
    assert_eq!(String::from_utf8(from_base64url(body).unwrap()).unwrap(), HAND_WRITTEN);
}

/// The page's message for a file: what the notice says after Import.
fn page_message(text: &str, lang: Lang) -> String {
    let mut s = Session::new(Default::default()).unwrap();
    barrierscope::classroom::open_run(&mut s, Origin::File, Ok(text.to_string()));
    s.notice.expect("a notice").message(lang)
}

#[test]
fn every_message_the_book_lists_is_the_pages() {
    let book = std::fs::read_to_string(format!("{ROOT}/docs/src/lessons.md")).unwrap();
    let readme = std::fs::read_to_string(format!("{ROOT}/README.md")).unwrap();
    let cases = [
        HAND_WRITTEN.replace("\"read Source x2\", \"checkpoint\"", "\"reed Source x2\", \"checkpoint\""),
        HAND_WRITTEN.replacen("{\"say\":", "{\"sya\":", 1),
        HAND_WRITTEN.replace("\"reveal\":", "\"note\":"),
        HAND_WRITTEN.replacen("{\"say\": {\"en\": \"Four tasks", "{\"say\": {\"fr\": \"Four tasks", 1),
        HAND_WRITTEN.replace("\"barrierscope-lesson\": 1", "\"barrierscope-lesson\": 2"),
    ];
    for (k, text) in cases.iter().enumerate() {
        assert_ne!(text, HAND_WRITTEN, "case {k} changes the file");
        let en = page_message(text, Lang::En);
        let prefix = "Couldn't open the file: it is not a valid lesson file: ";
        let why = en
            .strip_prefix(prefix)
            .and_then(|w| w.strip_suffix(". Your current run is unchanged."))
            .unwrap_or_else(|| panic!("{en}"));
        assert!(book.contains(&format!("`{why}`")), "the book lists {why:?}");
        let zh = page_message(text, Lang::Zh);
        assert!(zh.starts_with("无法打开文件：它不是有效的课程文件：") && zh.ends_with("当前的运行保持不变。"), "{zh}");
        if k == 0 {
            assert!(readme.contains(&en), "the README lists {en:?}");
        }
    }
    // A job that does not exist, and text that is not JSON: the book gives their beginnings.
    let e = lesson_file::parse(&HAND_WRITTEN.replace("\"line-sink\"", "\"nope\"")).unwrap_err();
    assert!(e.message(Lang::En).starts_with("\"settings\": the run does not start: "), "{}", e.message(Lang::En));
    let e = lesson_file::parse("{").unwrap_err();
    assert!(e.message(Lang::En).starts_with("it is not valid JSON: "));
}

#[test]
fn a_broken_file_changes_nothing_and_a_good_one_opens_its_first_step() {
    let mut s = Session::new(Default::default()).unwrap();
    for _ in 0..2 {
        s.handle(barrierscope::classroom::Command::Forward);
    }
    let before = (s.timeline.position(), s.timeline.len(), s.config.clone());
    barrierscope::classroom::open_run(&mut s, Origin::File, Ok("{\"barrierscope-lesson\": 1, \"id\": \"x\"}".into()));
    assert_eq!(
        (s.timeline.position(), s.timeline.len(), s.config.clone()),
        before,
        "nothing the learner had open is lost"
    );
    assert!(matches!(&s.notice, Some(Notice::LoadFailed { error: LoadError::LessonFile(_), .. })));
    barrierscope::classroom::open_run(&mut s, Origin::File, Ok(HAND_WRITTEN.into()));
    let p = s.lesson.as_ref().expect("the lesson opened");
    assert_eq!((p.lesson().id, p.step), ("append-twice", 0));
    assert_eq!(
        s.notice.as_ref().unwrap().message(Lang::En),
        "Opened the lesson “An append sink writes c twice” from the file."
    );
    assert_eq!(s.notice.as_ref().unwrap().message(Lang::Zh), "已从文件打开课程“追加式 Sink 把 c 写了两次”。");
    // Its saved run keeps the file, so a link opens it in a page that never saw it.
    let saved = serde_json::to_string(&s.save(Lang::En)).unwrap();
    assert!(saved.contains("\"lesson-file\""));
    let (opened, _) = Session::load(&saved).unwrap();
    assert_eq!(opened.lesson.as_ref().unwrap().lesson().id, "append-twice");
}
