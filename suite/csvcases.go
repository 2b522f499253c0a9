package suite

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// csvKeys are the keys of a suite's cases_csv.
var csvKeys = []string{"file", "id", "input", "expected", "output", "split", "item"}

// csvMapping is a decoded cases_csv: the file, and the column each case
// field is read from ("" for none).
type csvMapping struct {
	file                               string
	id, input, expected, output, split string
	item                               []string
}

// csvCases reads the cases of a suite's cases_csv key (docs/suite.md) and
// returns them as the list node a cases key would hold, each row a case
// at its line of the CSV file, so they are checked and selected as any
// other case.
func (s *Suite) csvCases(n *node) (*node, error) {
	m, err := s.decodeCSVMapping(n)
	if err != nil {
		return nil, err
	}
	s.dataFile = m.file
	data, err := s.root.ReadFile(m.file)
	if err != nil {
		return nil, s.errAt(n, "cases_csv.file", "cannot read %s in the suite's folder: %v", m.file, err)
	}
	rows, lines, err := readCSV(data)
	if err != nil {
		return nil, &Error{File: m.file, Msg: err.Error()}
	}
	if len(rows) == 0 {
		return nil, &Error{File: m.file, Msg: "the CSV file is empty: want a header row naming the columns"}
	}
	header := rows[0]
	col := map[string]int{}
	for i, h := range header {
		if _, dup := col[h]; dup {
			return nil, &Error{File: m.file, Line: lines[0], Msg: fmt.Sprintf("column %q appears twice in the header", h)}
		}
		col[h] = i
	}
	for _, c := range append([]string{m.id, m.input, m.expected, m.output, m.split}, m.item...) {
		if _, ok := col[c]; c != "" && !ok {
			return nil, s.errAt(n, "cases_csv", "%s has no column %q (its columns: %s)", m.file, c, strings.Join(header, ", "))
		}
	}
	list := &node{kind: kindSeq, line: n.line}
	for r, row := range rows[1:] {
		cn, err := csvCase(m, col, row, r+1)
		if err != nil {
			return nil, &Error{File: m.file, Line: lines[r+1], Msg: err.Error()}
		}
		cn.line = lines[r+1]
		list.items = append(list.items, cn)
	}
	return list, nil
}

// csvCase builds the case node of one data row (row counts from 1).
func csvCase(m csvMapping, col map[string]int, row []string, rowNum int) (*node, error) {
	obj := map[string]any{"id": "row-" + strconv.Itoa(rowNum)}
	set := func(key, column string) {
		if column != "" {
			obj[key] = row[col[column]]
		}
	}
	set("id", m.id)
	set("input", m.input)
	set("expected", m.expected)
	set("split", m.split)
	if m.output != "" {
		obj["outputs"] = []string{row[col[m.output]]}
	}
	if len(m.item) > 0 {
		item := map[string]string{}
		for _, c := range m.item {
			item[c] = row[col[c]]
		}
		obj["item"] = item
	}
	return caseNode(obj, 0)
}

// readCSV parses a CSV file (a UTF-8 byte order mark dropped) into rows,
// with the line each row starts on.
func readCSV(data []byte) (rows [][]string, lines []int, err error) {
	rd := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	rd.ReuseRecord = false
	for {
		rec, err := rd.Read()
		if errors.Is(err, io.EOF) {
			return rows, lines, nil
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, nil, fmt.Errorf("line %d: not valid CSV: %v", pe.Line, pe.Err)
			}
			return nil, nil, err
		}
		line, _ := rd.FieldPos(0)
		rows, lines = append(rows, rec), append(lines, line)
	}
}

// decodeCSVMapping decodes the cases_csv map.
func (s *Suite) decodeCSVMapping(n *node) (csvMapping, error) {
	var m csvMapping
	if n.kind != kindMap {
		return m, s.errAt(n, "cases_csv", "want a map (file, and the columns of id, input, expected, output, split, item), got %s", n.what())
	}
	if err := s.checkKeys(n, "cases_csv", csvKeys); err != nil {
		return m, err
	}
	fields := map[string]*string{"file": &m.file, "id": &m.id, "input": &m.input, "expected": &m.expected, "output": &m.output, "split": &m.split}
	for _, k := range csvKeys[:6] {
		if v := n.get(k); v != nil {
			str, err := s.str(v, "cases_csv."+k)
			if err != nil {
				return m, err
			}
			*fields[k] = str
		}
	}
	if m.file == "" {
		return m, s.errAt(n, "cases_csv.file", "missing: name the CSV file, in the suite's folder")
	}
	if v := n.get("item"); v != nil {
		if v.kind != kindSeq {
			return m, s.errAt(v, "cases_csv.item", "want a list of column names, got %s", v.what())
		}
		for i, it := range v.items {
			c, err := s.str(it, fmt.Sprintf("cases_csv.item[%d]", i))
			if err != nil {
				return m, err
			}
			if slices.Contains(m.item, c) {
				return m, s.errAt(it, fmt.Sprintf("cases_csv.item[%d]", i), "column %q is listed twice", c)
			}
			m.item = append(m.item, c)
		}
	}
	return m, nil
}
