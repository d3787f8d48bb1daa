// Read-only tables over an export report: the check's per-output figures and
// the archive's variables. Both are reset from a SessionState.
#pragma once

#include "t2n/report.h"

#include <QAbstractTableModel>

namespace t2n::ui {

/// One carried state in words: "_state: input 'state' (f32 2x1x128) and
/// output 'state_out'; give each call's state_out as the next call's state".
QString carriedStateText(const CarriedState& c);
/// What the archive is specialised for, in words ("" when nothing):
/// "sr = 16000 (int): export again for another value".
QString specialisedText(const std::vector<std::string>& bound);

class OutputComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// Steps: a quantized output's end-to-end error in quantization steps
    /// and its share of one-step differences ("—" for other outputs).
    enum Column { Name, Verdict, MaxAbs, MaxRel, Mismatches, Steps, Worst, ColumnCount };
    explicit OutputComparisonModel(QObject* parent = nullptr);
    void setOutputs(const std::vector<OutputComparison>& outputs);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::vector<OutputComparison> outputs_;
};

class VariablesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Identifier, DType, Shape, Origin, ColumnCount };
    explicit VariablesModel(QObject* parent = nullptr);
    void setVariables(const std::vector<VariableRecord>& variables);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::vector<VariableRecord> variables_;
};

/// "1x3x224x224" ("scalar" for rank 0).
QString shapeText(const std::vector<int64_t>& shape);

} // namespace t2n::ui
